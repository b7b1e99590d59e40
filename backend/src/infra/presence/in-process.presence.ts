import { Injectable } from '@nestjs/common';
import { PresencePort } from './presence.port.js';

/** The presence port within one process (embedded mode): a set of members per topic. */
@Injectable()
export class InProcessPresence extends PresencePort {
  private readonly topics = new Map<string, Set<string>>();

  async join(topic: string, member: string): Promise<number> {
    let members = this.topics.get(topic);
    if (!members) this.topics.set(topic, (members = new Set()));
    members.add(member);
    return members.size;
  }

  async leave(topic: string, member: string): Promise<number> {
    const members = this.topics.get(topic);
    members?.delete(member);
    if (members?.size === 0) this.topics.delete(topic);
    return members?.size ?? 0;
  }

  async counts(topics: string[]): Promise<number[]> {
    return topics.map((topic) => this.topics.get(topic)?.size ?? 0);
  }

  async present(topic: string, members: string[]): Promise<boolean[]> {
    const held = this.topics.get(topic);
    return members.map((member) => held?.has(member) ?? false);
  }
}
