import { Injectable, Logger } from '@nestjs/common';
import {
  deliverToEach,
  EventsPort,
  type InstanceEvent,
  type InstanceListener,
  type LiveEnvelope,
  type LiveListener,
  liveSpan,
} from './events.port.js';
import { inSpan } from '../tracing/tracing.js';

/** The events port within one process (embedded mode): a listener set, delivered on the next tick. */
@Injectable()
export class InProcessEvents extends EventsPort {
  private readonly logger = new Logger('Events');
  private readonly listeners = new Set<LiveListener>();
  private readonly instanceListeners = new Set<InstanceListener>();

  async publish(envelope: LiveEnvelope): Promise<void> {
    await inSpan('live publish', liveSpan('in-process', 'live', envelope), async () => {
      // Asynchronous like the Redis adapter, so callers never depend on delivery happening inline.
      queueMicrotask(() => deliverToEach(this.listeners, envelope, this.logger, 'live event'));
    });
  }

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async broadcast(event: InstanceEvent): Promise<void> {
    deliverToEach(this.instanceListeners, event, this.logger, 'instance event');
  }

  onBroadcast(listener: InstanceListener): () => void {
    this.instanceListeners.add(listener);
    return () => this.instanceListeners.delete(listener);
  }
}
