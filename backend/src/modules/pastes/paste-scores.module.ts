import { Module } from '@nestjs/common';
import { PasteScores } from './paste-scores.js';

/** The score columns of pastes and replies, for the votes module (which writes them with each vote). */
@Module({ providers: [PasteScores], exports: [PasteScores] })
export class PasteScoresModule {}
