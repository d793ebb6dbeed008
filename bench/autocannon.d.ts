/** autocannon ships no types; the benchmarks use its documented options and result fields. */
declare module 'autocannon';
