import { Injectable, Logger } from '@nestjs/common';
import { deliverToListeners, EventsPort, type LiveEnvelope, type LiveListener } from './events.port.js';

/** The events port within one process (embedded mode): a listener set, delivered on the next tick. */
@Injectable()
export class InProcessEvents extends EventsPort {
  private readonly logger = new Logger('Events');
  private readonly listeners = new Set<LiveListener>();

  async publish(envelope: LiveEnvelope): Promise<void> {
    // Asynchronous like the Redis adapter, so callers never depend on delivery happening inline.
    queueMicrotask(() => deliverToListeners(this.listeners, envelope, this.logger));
  }

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
