/**
 * toybox's `date` for the phone shell (private to `@sdk/web/testing`), as Android's and
 * HarmonyOS's toybox print it: `date [-u] [-I[RES]] [-d @SECONDS[.FRACTION]] [+FORMAT]`, with
 * strftime's conversions and toybox's own `%N` (nanoseconds), `%<n>N` (the first n digits of
 * them: `%3N` is milliseconds) and `%:z`. The device's clock and time zone are the host's.
 *
 * @module
 */

import type { ShellCommand } from "./phone_shell.ts";

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

const pad = (n: number, width = 2, fill = "0") => String(n).padStart(width, fill);

/** The broken-down time of an instant, local or UTC (what strftime formats). */
interface Tm {
  year: number;
  month: number; // 0-11
  day: number;
  hours: number;
  minutes: number;
  seconds: number;
  weekday: number; // 0 Sunday
  yearDay: number; // 0-365
  offsetMinutes: number; // east of UTC
  zone: string;
}

function brokenDown(ms: number, utc: boolean): Tm {
  const d = new Date(ms);
  const get = (local: () => number, universal: () => number) => utc ? universal() : local();
  const year = get(() => d.getFullYear(), () => d.getUTCFullYear());
  const month = get(() => d.getMonth(), () => d.getUTCMonth());
  const day = get(() => d.getDate(), () => d.getUTCDate());
  const offsetMinutes = utc ? 0 : -d.getTimezoneOffset();
  const zone = utc ? "UTC" : new Intl.DateTimeFormat("en-US", { timeZoneName: "short" })
    .formatToParts(d).find((p) => p.type === "timeZoneName")?.value ?? "UTC";
  return {
    year,
    month,
    day,
    hours: get(() => d.getHours(), () => d.getUTCHours()),
    minutes: get(() => d.getMinutes(), () => d.getUTCMinutes()),
    seconds: get(() => d.getSeconds(), () => d.getUTCSeconds()),
    weekday: get(() => d.getDay(), () => d.getUTCDay()),
    yearDay: Math.round((Date.UTC(year, month, day) - Date.UTC(year, 0, 1)) / 86_400_000),
    offsetMinutes,
    zone: zone === "GMT" && offsetMinutes === 0 ? "UTC" : zone,
  };
}

/** ISO 8601 week number and its year (`%V`, `%G`). */
function isoWeek(tm: Tm): { week: number; year: number } {
  const date = new Date(Date.UTC(tm.year, tm.month, tm.day));
  const weekday = (tm.weekday + 6) % 7; // Monday 0
  date.setUTCDate(date.getUTCDate() - weekday + 3); // the Thursday of this week
  const year = date.getUTCFullYear();
  const week = 1 + Math.floor((date.getTime() - Date.UTC(year, 0, 1)) / 604_800_000);
  return { week, year };
}

/** Formats with strftime's conversions and toybox's `%N`, `%<digit>N` and `%:z`. */
function formatDate(format: string, ms: number, nanos: number, utc: boolean): string {
  const tm = brokenDown(ms, utc);
  const zone = (colon: boolean) => {
    const sign = tm.offsetMinutes >= 0 ? "+" : "-";
    const abs = Math.abs(tm.offsetMinutes);
    return `${sign}${pad(Math.floor(abs / 60))}${colon ? ":" : ""}${pad(abs % 60)}`;
  };
  const hour12 = tm.hours % 12 === 0 ? 12 : tm.hours % 12;
  const conversions: Record<string, () => string> = {
    a: () => DAYS[tm.weekday].slice(0, 3),
    A: () => DAYS[tm.weekday],
    b: () => MONTHS[tm.month].slice(0, 3),
    h: () => MONTHS[tm.month].slice(0, 3),
    B: () => MONTHS[tm.month],
    c: () =>
      `${conversions.a()} ${conversions.b()} ${pad(tm.day, 2, " ")} ${conversions.T()} ${tm.year}`,
    C: () => pad(Math.floor(tm.year / 100)),
    d: () => pad(tm.day),
    D: () => `${pad(tm.month + 1)}/${pad(tm.day)}/${pad(tm.year % 100)}`,
    e: () => pad(tm.day, 2, " "),
    F: () => `${tm.year}-${pad(tm.month + 1)}-${pad(tm.day)}`,
    g: () => pad(isoWeek(tm).year % 100),
    G: () => String(isoWeek(tm).year),
    H: () => pad(tm.hours),
    I: () => pad(hour12),
    j: () => pad(tm.yearDay + 1, 3),
    k: () => pad(tm.hours, 2, " "),
    l: () => pad(hour12, 2, " "),
    m: () => pad(tm.month + 1),
    M: () => pad(tm.minutes),
    n: () => "\n",
    p: () => tm.hours < 12 ? "AM" : "PM",
    P: () => tm.hours < 12 ? "am" : "pm",
    r: () => `${pad(hour12)}:${pad(tm.minutes)}:${pad(tm.seconds)} ${conversions.p()}`,
    R: () => `${pad(tm.hours)}:${pad(tm.minutes)}`,
    s: () => String(Math.floor(ms / 1000)),
    S: () => pad(tm.seconds),
    t: () => "\t",
    T: () => `${pad(tm.hours)}:${pad(tm.minutes)}:${pad(tm.seconds)}`,
    u: () => String(tm.weekday === 0 ? 7 : tm.weekday),
    U: () => pad(Math.floor((tm.yearDay + 7 - tm.weekday) / 7)),
    V: () => pad(isoWeek(tm).week),
    w: () => String(tm.weekday),
    W: () => pad(Math.floor((tm.yearDay + 7 - ((tm.weekday + 6) % 7)) / 7)),
    x: () => conversions.D(),
    X: () => conversions.T(),
    y: () => pad(tm.year % 100),
    Y: () => String(tm.year),
    z: () => zone(false),
    Z: () => tm.zone,
    "%": () => "%",
  };
  return format.replace(/%(:z|[1-9]?N|.)/gs, (_all, spec: string) => {
    if (spec === ":z") return zone(true);
    if (spec.endsWith("N")) return pad(nanos, 9).slice(0, spec.length === 2 ? Number(spec[0]) : 9);
    // An unknown conversion prints its character, as bionic's strftime does.
    return Object.hasOwn(conversions, spec) ? conversions[spec]() : spec;
  });
}

// `date -I RES`: toybox's ISO 8601 formats by resolution.
const ISO_FORMATS: Record<string, string> = {
  d: "%F",
  h: "%FT%H%:z",
  m: "%FT%R%:z",
  s: "%FT%T%:z",
  n: "%FT%T,%N%:z",
};

/** `date [-u] [-I[RES]] [-d @SECONDS[.FRACTION]] [+FORMAT]`. */
export const date: ShellCommand = (args, io) => {
  let utc = false;
  let format = "%a %b %e %H:%M:%S %Z %Y";
  // The host clock, to the microsecond at best: the nanoseconds below that are zero.
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  let ms = Math.floor(micros / 1000);
  let nanos = (micros % 1_000_000) * 1000;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-u" || arg === "--utc") utc = true;
    else if (arg.startsWith("-I") || arg.startsWith("--iso-8601")) {
      const resolution = arg.startsWith("-I") ? arg.slice(2) : arg.split("=")[1] ?? "";
      const iso = ISO_FORMATS[resolution === "" ? "d" : resolution[0]];
      if (!iso) {
        io.stderr(`date: bad -I: ${resolution}\n`);
        return Promise.resolve(1);
      }
      format = iso;
    } else if (arg === "-d" && /^@-?\d+(\.\d+)?$/.test(args[i + 1] ?? "")) {
      const [whole, fraction = ""] = args[++i].slice(1).split(".");
      ms = Number(whole) * 1000 + Math.floor(Number(`0.${fraction || "0"}`) * 1000);
      nanos = Number(fraction.padEnd(9, "0").slice(0, 9));
    } else if (arg.startsWith("+")) format = arg.slice(1);
    else {
      io.stderr(`date: bad date '${arg}'\n`);
      return Promise.resolve(1);
    }
  }
  io.stdout(`${formatDate(format, ms, nanos, utc)}\n`);
  return Promise.resolve(0);
};
