import { Module } from '@nestjs/common';
import { PasteScores } from './paste-scores.js';

/** PasteScores on its own, for the votes module (which the forum module imports in turn). */
@Module({ providers: [PasteScores], exports: [PasteScores] })
export class PasteScoresModule {}
