import { Module } from '@nestjs/common';
import { LiveGateway } from './live.gateway.js';
import { LivePresence } from './live-presence.js';

/**
 * The live socket (`/ws/chat`) that carries every live event of the events port, from every module and
 * instance: the chat to every member, notifications, unread counts and private messages to their member
 * only, `signed_out` to a member signed out by staff, a paste's public events to whoever watches it
 * (members and visitors), and presence (members online, members reading a paste).
 */
@Module({ providers: [LiveGateway, LivePresence] })
export class LiveModule {}
