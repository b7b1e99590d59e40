import { Module } from '@nestjs/common';
import { TokensSweeper } from './tokens/tokens-sweep.js';

/** The sweep of long-revoked access tokens, for the API (AuthModule) and the worker alike (the queue is global). */
@Module({ providers: [TokensSweeper], exports: [TokensSweeper] })
export class TokensSweepModule {}
