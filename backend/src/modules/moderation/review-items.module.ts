import { Module, type OnModuleInit } from '@nestjs/common';
import { ReviewQueuePort } from '../screening/review-queue.js';
import { ScreeningModule } from '../screening/screening.module.js';
import { ReviewItems } from './review-items.js';

/** The review queue's rows, registered where the posting paths (below moderation) reach them. */
@Module({
  imports: [ScreeningModule],
  providers: [ReviewItems],
  exports: [ReviewItems],
})
export class ReviewItemsModule implements OnModuleInit {
  constructor(
    private readonly port: ReviewQueuePort,
    private readonly items: ReviewItems,
  ) {}

  onModuleInit(): void {
    this.port.register(this.items);
  }
}
