import { Module } from '@nestjs/common';
import { ViewerVotesPort } from './viewer-votes.js';

/** The port through which the paste page reads the viewer's votes (see viewer-votes.ts). */
@Module({ providers: [ViewerVotesPort], exports: [ViewerVotesPort] })
export class ViewerVotesModule {}
