import { z } from 'zod';
import {
  ANNOTATION_KINDS,
  HIGHLIGHT_COLOURS,
  NOTE_MAX_LENGTH,
} from '#domain/reading/annotation-rules.ts';
import { EXPORT_FORMATS } from '#domain/reading/notes-export.ts';
import {
  FONT_SCALES,
  LINE_SPACINGS,
  READER_FONTS,
  READER_LAYOUTS,
  READER_MARGINS,
  READER_THEMES,
} from '#domain/reading/reader-settings.ts';
import { idParam } from '../id-param.ts';

const index = z
  .string()
  .regex(/^(0|[1-9]\d{0,5})$/)
  .transform(Number);

/** The {productId} of /api/reading/{productId}/…, as it came in the path. */
export const productIdParam = idParam;
/** The {part} of /api/reading/{productId}/parts/{part}: a chapter, from 0. */
export const partParam = index;

/** What every reading call may say besides: the CDS membership it reads through. */
export const readingQuery = z.object({
  coursemember_id: z.array(idParam).max(1).optional(),
  q: z.array(z.string().trim().min(1).max(200)).max(1).optional(),
});

export const positionBody = z.object({
  data: z.object({
    type: z.literal('reading-position'),
    attributes: z
      .object({
        part: z.number().int().min(0).max(1_000_000),
        progression: z.number().min(0).max(1),
        // When the place was read, for a place read offline and sent later (issue 16): it
        // does not replace a place read since on another device.
        readAt: z.iso.datetime({ offset: true }).optional(),
      })
      .strict(),
  }),
});

export const copyBody = z.object({
  data: z.object({
    type: z.literal('copy'),
    attributes: z.object({ characters: z.number().int().min(1).max(10_000_000) }).strict(),
  }),
});

/** Pages `from` to `to` of the book's print pages, from 1, both included. */
export const printBody = z.object({
  data: z.object({
    type: z.literal('print'),
    attributes: z
      .object({
        from: z.number().int().min(1).max(1_000_000),
        to: z.number().int().min(1).max(1_000_000),
      })
      .strict()
      .refine((pages) => pages.from <= pages.to, { path: ['to'] }),
  }),
});

/** PUT /api/reading/settings: the whole set of reading settings (issue 16), each one of its values. */
export const settingsBody = z.object({
  data: z.object({
    type: z.literal('reader-settings'),
    attributes: z
      .object({
        layout: z.enum(READER_LAYOUTS),
        fontScale: z.union(FONT_SCALES.map((scale) => z.literal(scale))),
        font: z.enum(READER_FONTS),
        lineSpacing: z.enum(LINE_SPACINGS),
        margins: z.enum(READER_MARGINS),
        theme: z.enum(READER_THEMES),
      })
      .strict(),
  }),
});

/** The {annotationId} of /api/reading/{productId}/annotations/{annotationId}. */
export const annotationIdParam = idParam;

const offset = z.number().int().min(0).max(100_000_000);

/** POST /api/reading/{productId}/annotations: a highlight or bookmark on a passage (issue 16). */
export const annotationBody = z.object({
  data: z.object({
    type: z.literal('annotation'),
    attributes: z
      .object({
        kind: z.enum(ANNOTATION_KINDS),
        part: z.number().int().min(0).max(1_000_000),
        start: offset,
        end: offset,
        colour: z.enum(HIGHLIGHT_COLOURS).nullable().optional(),
        note: z.string().max(NOTE_MAX_LENGTH).nullable().optional(),
        // The device's name for a highlight made offline (a UUID): sent again, the same one.
        clientKey: z
          .string()
          .regex(/^[\w-]{8,64}$/)
          .optional(),
      })
      .strict(),
  }),
});

/** POST /api/reading/{productId}/annotations/export: the reader's notes as a file. */
export const notesExportBody = z.object({
  data: z.object({
    type: z.literal('notesExport'),
    attributes: z.object({ format: z.enum(EXPORT_FORMATS) }).strict(),
  }),
});

/** PATCH /api/reading/{productId}/annotations/{id}: a highlight's colour or note. */
export const annotationChangeBody = z.object({
  data: z.object({
    type: z.literal('annotation'),
    attributes: z
      .object({
        colour: z.enum(HIGHLIGHT_COLOURS).optional(),
        note: z.string().max(NOTE_MAX_LENGTH).nullable().optional(),
      })
      .strict()
      .refine((change) => change.colour !== undefined || change.note !== undefined),
  }),
});
