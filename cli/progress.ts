const MB = 1024 * 1024;

/** Bytes as megabytes for people: one decimal, two below 0.1 MB so a small bundle never reads "0.0 MB". */
export function megabytes(bytes: number): string {
  const mb = bytes / MB;
  return `${mb < 0.1 && bytes > 0 ? mb.toFixed(2) : mb.toFixed(1)} MB`;
}

/** Seconds as "8 s", "2 min 05 s", "1 h 03 min". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/**
 * The text after an upload's bar: "1.5 / 4.0 MB, 2.3 MB/s, 1 s left". Speed and time left are left out
 * until some bytes have gone, when they would be guesses.
 */
export function transferText(sent: number, total: number, elapsedMs: number): string {
  const sizes = `${megabytes(sent).replace(' MB', '')} / ${megabytes(total)}`;
  if (sent <= 0 || elapsedMs <= 0) return sizes;
  const perSecond = (sent * 1000) / elapsedMs;
  const left = sent >= total ? 'done' : `${duration((total - sent) / perSecond)} left`;
  return `${sizes}, ${megabytes(perSecond)}/s, ${left}`;
}
