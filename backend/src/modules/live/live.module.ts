import { Module } from '@nestjs/common';
import { LiveGateway } from './live.gateway.js';
import { LivePresence } from './live-presence.js';

/**
 * The live socket (`/ws/chat`), carrying every live event of every module and instance: chat,
 * a member's own events, `signed_out`, a paste's public events to its watchers, and presence.
 */
@Module({ providers: [LiveGateway, LivePresence] })
export class LiveModule {}
