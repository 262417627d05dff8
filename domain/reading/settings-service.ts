import { eq, sql } from 'drizzle-orm';
import { readerSettings } from '#db/schema/reading.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { userOf } from './reader-access.ts';
import { type ReaderSettings, readerSettingsFrom } from './reader-settings.ts';

// The logged-in reader's settings (issue 16), on every device: what they last chose, or the
// defaults for someone who never changed any.

/** What the reader saved, null when they never changed a setting on any device. */
export async function savedReaderSettings(ctx: RequestContext): Promise<ReaderSettings | null> {
  const user = userOf(ctx);
  const [row] = await ctx.db
    .select({ settings: readerSettings.settings })
    .from(readerSettings)
    .where(eq(readerSettings.userId, user.id))
    .limit(1);
  return row ? readerSettingsFrom(row.settings) : null;
}

/** The reader's settings: what they saved, or the defaults. */
export async function readerSettingsOf(ctx: RequestContext): Promise<ReaderSettings> {
  return (await savedReaderSettings(ctx)) ?? readerSettingsFrom(null);
}

/** Saves the whole set (the last write wins, as for a reading position). */
export async function saveReaderSettings(
  ctx: RequestContext,
  settings: ReaderSettings,
): Promise<ReaderSettings> {
  const user = userOf(ctx);
  const kept = readerSettingsFrom(settings);
  await ctx.db
    .insert(readerSettings)
    .values({ userId: user.id, settings: kept, updatedAt: ctx.now })
    .onConflictDoUpdate({
      target: readerSettings.userId,
      set: { settings: sql`excluded.settings`, updatedAt: sql`excluded.updated_at` },
    });
  return kept;
}
