/**
 * Dates as pages write them for readers, read into ISO 8601 (YYYY-MM-DD): "12 October 2026",
 * "October 12, 2026", "Oct. 12, 2026", "12. Oktober 2026", "12 de octubre de 2026", "4 mai 2015",
 * "21.dez.2018", "04.05.2015" and "2026-10-12", with month names in English, French, Spanish,
 * Portuguese and German (the languages of the shared corpus's article pages, and German). Only real
 * calendar days between 1990 and 2100; "05/04/2015" is left alone (day or month first?). A
 * `<time datetime>` value is kept as the page gives it when it is an ISO date or date-time.
 *
 * Every regex here is linear: alternations of fixed words, bounded digit runs, no nested or
 * adjacent ambiguous quantifiers (a ReDoS analyser runs over every regex of the project).
 */

const MONTHS: Record<string, number> = Object.assign(Object.create(null), {
  // English
  january: 1,
  february: 2,
  march: 3,
  april: 4,
  may: 5,
  june: 6,
  july: 7,
  august: 8,
  september: 9,
  october: 10,
  november: 11,
  december: 12,
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  // French
  janvier: 1,
  février: 2,
  fevrier: 2,
  mars: 3,
  avril: 4,
  mai: 5,
  juin: 6,
  juillet: 7,
  août: 8,
  aout: 8,
  septembre: 9,
  octobre: 10,
  novembre: 11,
  décembre: 12,
  decembre: 12,
  // Spanish
  enero: 1,
  febrero: 2,
  marzo: 3,
  abril: 4,
  mayo: 5,
  junio: 6,
  julio: 7,
  agosto: 8,
  septiembre: 9,
  setiembre: 9,
  octubre: 10,
  noviembre: 11,
  diciembre: 12,
  ene: 1,
  abr: 4,
  ago: 8,
  dic: 12,
  // Portuguese
  janeiro: 1,
  fevereiro: 2,
  março: 3,
  marco: 3,
  maio: 5,
  junho: 6,
  julho: 7,
  setembro: 9,
  outubro: 10,
  novembro: 11,
  dezembro: 12,
  fev: 2,
  set: 9,
  out: 10,
  dez: 12,
  // German
  januar: 1,
  februar: 2,
  märz: 3,
  maerz: 3,
  juni: 6,
  juli: 7,
  oktober: 10,
  dezember: 12,
  okt: 10,
});

/**
 * One pass finds every form; which group matched says which form it is: 2026-10-12; October 12,
 * 2026 / Oct. 12 2026; 12 October 2026 / 12. Oktober 2026 / 12 de octubre de 2026 / 4 mai 2015;
 * 21.dez.2018; 04.05.2015. A month is a run of 3 to 10 letters, looked up in {@link MONTHS}.
 */
const DATE_RE =
  /(?<iso>\b(\d{4})-(\d{2})-(\d{2})\b)|(?<mdy>\b(\p{L}{3,10})\.? (\d{1,2}),? (\d{4})\b)|(?<dmy>\b(\d{1,2})\.? (?:de )?(\p{L}{3,10})\.?,? (?:de )?(\d{4})\b)|(?<dmyDot>\b(\d{1,2})\.(\p{L}{3,10})\.(\d{4})\b)|(?<numeric>\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b)/giu;

/** A date found in a text: where it starts and ends, and its ISO form. */
export interface TextDate {
  start: number;
  end: number;
  iso: string;
}

function iso(y: number, m: number, d: number): string | null {
  if (y < 1990 || y > 2100 || m < 1 || m > 12 || d < 1) return null;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > days) return null;
  return `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

function month(name: string): number | undefined {
  return MONTHS[name.toLowerCase()];
}

/** Every date the text writes, in order (at most `max`). */
export function datesIn(text: string, max = 5): TextDate[] {
  const out: TextDate[] = [];
  DATE_RE.lastIndex = 0;
  for (let m = DATE_RE.exec(text); m && out.length < max; m = DATE_RE.exec(text)) {
    const g = m;
    let value: string | null = null;
    if (g.groups?.iso) value = iso(Number(g[2]), Number(g[3]), Number(g[4]));
    else if (g.groups?.mdy) {
      const mm = month(g[6]);
      value = mm ? iso(Number(g[8]), mm, Number(g[7])) : null;
    } else if (g.groups?.dmy) {
      const mm = month(g[11]);
      value = mm ? iso(Number(g[12]), mm, Number(g[10])) : null;
    } else if (g.groups?.dmyDot) {
      const mm = month(g[15]);
      value = mm ? iso(Number(g[16]), mm, Number(g[14])) : null;
    } else if (g.groups?.numeric) {
      value = iso(Number(g[20]), Number(g[19]), Number(g[18]));
    }
    if (value) out.push({ start: m.index, end: m.index + m[0].length, iso: value });
  }
  return out;
}

const ISO_VALUE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A `<time datetime>` value as an ISO 8601 date or date-time (a space before the time becomes
 * "T"), or null when it is not one or names no real day.
 */
export function isoDatetime(value: string): string | null {
  const t = value.trim();
  const m = ISO_VALUE.exec(t);
  if (!m || !iso(Number(m[1]), Number(m[2]), Number(m[3]))) return null;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59)) return null;
  return t.replace(" ", "T");
}
