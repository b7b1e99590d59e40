import { Module } from '@nestjs/common';
import { LiveGateway } from './live.gateway.js';

/**
 * The live socket (`/ws/chat`) that carries every live event of the events port, from every module and
 * instance: the chat to every member, notifications, unread counts and private messages to their member
 * only, and `signed_out` to a member signed out by staff.
 */
@Module({ providers: [LiveGateway] })
export class LiveModule {}
