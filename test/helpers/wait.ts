/** Real time passing: for what the service does after it answered (a last-used stamp, a retry's delay). */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
