/**
 * The words quick add reads, per language, declared once: the API, the CLI and the calendar's
 * field all parse with these (shared/quick-add/parse.ts). Each entry is a regular-expression
 * source matched case-insensitively, accents as written (plain spellings are listed beside them,
 * since people type "terca" and "sabado" too). Absolute dates ("Dec 15", "15 de dezembro",
 * "15/12") are chrono-node's; everything else is ours.
 */
import type { Language } from '../i18n/languages';

export interface QuickAddWords {
  /** 0 Sunday … 6 Saturday: the names a weekday goes by, plurals included ("todas as segundas"). */
  weekdays: string[];
  /** 1 January … 12 December. */
  months: string[];
  /** Days from today: "today" 0, "tomorrow" 1, "the day after tomorrow" 2. */
  relativeDays: Array<[source: string, days: number]>;
  /** "next friday", "el próximo viernes": before the weekday, or after it ("sexta que vem"). */
  nextBefore: string;
  nextAfter: string;
  /** A day of this month, or the next once it is past ("the 5th", "dia 5", "el día 5"); group 1 the day. */
  dayOfMonth: string;
  /** "in 2 weeks", "daqui a 2 semanas", "dentro de 2 semanas". */
  inAmount: string;
  /** Unit words of a duration or an offset, by what they count. */
  units: { minute: string; hour: string; day: string; week: string; month: string; year: string };
  /** Number words people write instead of digits for a small count ("an hour", "uma hora"). */
  numbers: Array<[source: string, value: number]>;
  /** The time of day words: noon and midnight. */
  noon: string;
  midnight: string;
  /** Words after an hour that make it afternoon or evening ("3 da tarde", "8 de la noche"). */
  afternoon: string;
  morning: string;
  /** Words joining the two ends of a range of times or days ("to", "às", "a", "al"). */
  rangeJoin: string;
  /** A range of times starts with these ("from 9 to 11", "das 9 às 11", "de 9 a 11"). */
  rangeStart: string;
  /** Words before a time ("at 1pm", "às 13h", "a las 13:00"), a date ("on Friday", "no dia 15") or a length. */
  beforeTime: string;
  beforeDay: string;
  /** "for 45 minutes", "por 2 horas", "durante 90 minutos". */
  lengthStart: string;
  /** Repeats. */
  repeat: {
    daily: string;
    weekly: string;
    monthly: string;
    yearly: string;
    weekdays: string;
    weekends: string;
    /** "every" before a weekday, a unit or a count ("every 2 weeks", "a cada 2 semanas", "cada lunes"). */
    every: string;
    /** "every other week" / "semana sim, semana não" is not worth it; "other" alone: */
    other: string;
    until: string;
    times: string;
    and: string;
  };
  /** "remind me 30 minutes before": the words before the amount, and after it. */
  remindBefore: string;
  remindAfter: string;
  /** Prepositions before a venue's name ("at Luso", "no Luso", "en Luso"). */
  venue: string;
}

const en: QuickAddWords = {
  weekdays: ['sundays?|sun', 'mondays?|mon', 'tuesdays?|tues?', 'wednesdays?', 'thursdays?|thurs?|thu', 'fridays?|fri', 'saturdays?'],
  months: ['january|jan', 'february|feb', 'march|mar', 'april|apr', 'may', 'june|jun', 'july|jul', 'august|aug', 'september|sept?', 'october|oct', 'november|nov', 'december|dec'],
  relativeDays: [['today|tonight', 0], ['tomorrow|tmrw', 1], ['(?:the\\s+)?day\\s+after\\s+tomorrow', 2]],
  nextBefore: 'next|this|coming',
  nextAfter: '',
  dayOfMonth: '(?:on\\s+)?the\\s+(\\d{1,2})(?:st|nd|rd|th)',
  inAmount: 'in',
  units: { minute: 'minutes?|mins?|m', hour: 'hours?|hrs?|h', day: 'days?', week: 'weeks?|wks?', month: 'months?', year: 'years?' },
  numbers: [['an?|one', 1], ['two', 2], ['three', 3], ['half\\s+an?', 0.5]],
  noon: 'noon|midday',
  midnight: 'midnight',
  afternoon: 'in\\s+the\\s+(?:afternoon|evening)|at\\s+night',
  morning: 'in\\s+the\\s+morning',
  rangeJoin: '-|–|to|until|till|and',
  rangeStart: 'from|between',
  beforeTime: 'at|@|from',
  beforeDay: 'starting(?:\\s+on)?|beginning|on|this|from',
  lengthStart: 'for',
  repeat: {
    daily: 'daily|every\\s*day',
    weekly: 'weekly|every\\s+week',
    monthly: 'monthly|every\\s+month',
    yearly: 'yearly|annually|every\\s+year',
    weekdays: 'every\\s+weekday|on\\s+weekdays|weekdays',
    weekends: 'every\\s+weekend|on\\s+weekends|weekends',
    every: 'every|each|on',
    other: 'other',
    until: 'until|till|through',
    times: 'times',
    and: 'and',
  },
  remindBefore: '(?:remind\\s+me|reminder|alert(?:\\s+me)?|notify\\s+me)',
  remindAfter: 'before(?:hand)?|early|earlier',
  venue: 'at|@',
};

const ptBr: QuickAddWords = {
  weekdays: [
    'domingos?',
    'segundas?(?:-feiras?|\\s+feiras?)?',
    'ter[çc]as?(?:-feiras?|\\s+feiras?)?',
    'quartas?(?:-feiras?|\\s+feiras?)?',
    'quintas?(?:-feiras?|\\s+feiras?)?',
    'sextas?(?:-feiras?|\\s+feiras?)?',
    's[áa]bados?',
  ],
  months: ['janeiro|jan', 'fevereiro|fev', 'mar[çc]o|mar', 'abril|abr', 'maio|mai', 'junho|jun', 'julho|jul', 'agosto|ago', 'setembro|set', 'outubro|out', 'novembro|nov', 'dezembro|dez'],
  relativeDays: [['hoje(?:\\s+[àa]\\s+noite)?', 0], ['amanh[ãa]', 1], ['depois\\s+de\\s+amanh[ãa]', 2]],
  nextBefore: 'pr[óo]xim[ao]|nest[ae]|est[ae]',
  nextAfter: 'que\\s+vem|da\\s+semana\\s+que\\s+vem',
  dayOfMonth: '(?:(?:no|em|para\\s+o)\\s+)?dia\\s+(\\d{1,2})',
  inAmount: 'em|daqui\\s+a|dentro\\s+de',
  units: { minute: 'minutos?|mins?|m', hour: 'horas?|h', day: 'dias?', week: 'semanas?', month: 'meses|m[êe]s', year: 'anos?' },
  numbers: [['uma?', 1], ['dois|duas', 2], ['tr[êe]s', 3], ['meia', 0.5]],
  noon: 'meio[-\\s]dia',
  midnight: 'meia[-\\s]noite',
  afternoon: 'da\\s+(?:tarde|noite)',
  morning: 'da\\s+manh[ãa]',
  rangeJoin: '-|–|[àa]s|a|at[ée]',
  rangeStart: 'das|de|desde|entre',
  beforeTime: '[àa]s|a|ao|@',
  beforeDay: 'a\\s+partir\\s+d[eao]|come[çc]ando\\s+(?:em|n[ao])|desde|na|no|em|dia|para|de|nesta|neste',
  lengthStart: 'por|durante',
  repeat: {
    daily: 'diariamente|todos\\s+os\\s+dias|todo\\s+dia|cada\\s+dia',
    weekly: 'semanalmente|toda\\s+semana|todas\\s+as\\s+semanas|cada\\s+semana',
    monthly: 'mensalmente|todo\\s+m[êe]s|todos\\s+os\\s+meses|cada\\s+m[êe]s',
    yearly: 'anualmente|todo\\s+ano|todos\\s+os\\s+anos|cada\\s+ano',
    weekdays: 'todo\\s+dia\\s+[úu]til|todos\\s+os\\s+dias\\s+[úu]teis|(?:nos\\s+|em\\s+)?dias\\s+[úu]teis|de\\s+segunda\\s+a\\s+sexta',
    weekends: 'todo\\s+fim\\s+de\\s+semana|todos\\s+os\\s+fins\\s+de\\s+semana|nos\\s+fins\\s+de\\s+semana',
    every: 'a\\s+cada|cada|todo|toda|todos\\s+os|todas\\s+as|aos|às|as',
    other: '',
    until: 'at[ée]',
    times: 'vezes',
    and: 'e',
  },
  remindBefore: '(?:me\\s+)?(?:lembrar|lembre(?:-me)?|lembrete|avisar|avise(?:-me)?|alerta)',
  remindAfter: 'antes',
  venue: 'no|na|em|@',
};

const es: QuickAddWords = {
  weekdays: ['domingos?', 'lunes', 'martes', 'mi[ée]rcoles', 'jueves', 'viernes', 's[áa]bados?'],
  months: ['enero|ene', 'febrero|feb', 'marzo|mar', 'abril|abr', 'mayo|may', 'junio|jun', 'julio|jul', 'agosto|ago', 'septiembre|setiembre|sept?', 'octubre|oct', 'noviembre|nov', 'diciembre|dic'],
  // "mañana" after "la"/"por" is the morning, not tomorrow.
  relativeDays: [['hoy|esta\\s+noche', 0], ['(?<!(?:la|por)\\s+)ma[ñn]ana', 1], ['pasado\\s+ma[ñn]ana', 2]],
  nextBefore: 'pr[óo]xim[oa]|este|esta',
  nextAfter: 'que\\s+viene|de\\s+la\\s+semana\\s+que\\s+viene',
  dayOfMonth: '(?:(?:el|para\\s+el)\\s+)?d[íi]a\\s+(\\d{1,2})',
  inAmount: 'en|dentro\\s+de',
  units: { minute: 'minutos?|mins?|m', hour: 'horas?|h', day: 'd[íi]as?', week: 'semanas?', month: 'meses|mes', year: 'a[ñn]os?' },
  numbers: [['una?|uno', 1], ['dos', 2], ['tres', 3], ['media', 0.5]],
  noon: 'mediod[íi]a',
  midnight: 'medianoche',
  afternoon: 'de\\s+la\\s+(?:tarde|noche)|por\\s+la\\s+(?:tarde|noche)',
  morning: 'de\\s+la\\s+ma[ñn]ana|por\\s+la\\s+ma[ñn]ana',
  rangeJoin: '-|–|a(?:\\s+las?)?|al|hasta(?:\\s+las?)?',
  rangeStart: 'de(?:\\s+las?)?|desde(?:\\s+las?)?|entre(?:\\s+las?)?',
  beforeTime: 'a\\s+las?|a|@',
  beforeDay: 'a\\s+partir\\s+del?|empezando\\s+el|desde\\s+el|desde|el|en|para|del|de|este|esta',
  lengthStart: 'por|durante',
  repeat: {
    daily: 'diariamente|todos\\s+los\\s+d[íi]as|cada\\s+d[íi]a',
    weekly: 'semanalmente|todas\\s+las\\s+semanas|cada\\s+semana',
    monthly: 'mensualmente|todos\\s+los\\s+meses|cada\\s+mes',
    yearly: 'anualmente|todos\\s+los\\s+a[ñn]os|cada\\s+a[ñn]o',
    weekdays: 'cada\\s+d[íi]a\\s+laborable|todos\\s+los\\s+d[íi]as\\s+laborables|(?:los\\s+|en\\s+)?d[íi]as\\s+laborables|entre\\s+semana|de\\s+lunes\\s+a\\s+viernes',
    weekends: 'cada\\s+fin\\s+de\\s+semana|todos\\s+los\\s+fines\\s+de\\s+semana|los\\s+fines\\s+de\\s+semana',
    every: 'cada|todos\\s+los|todas\\s+las|los',
    other: '',
    until: 'hasta(?:\\s+el)?',
    times: 'veces',
    and: 'y',
  },
  remindBefore: '(?:recordar(?:me)?|recu[ée]rdame|recordatorio|avisar(?:me)?|av[íi]same|alerta)',
  remindAfter: 'antes',
  venue: 'en|@',
};

export const QUICK_ADD_WORDS: Record<Language, QuickAddWords> = { en, 'pt-br': ptBr, es };
