/** Source of the current time; services take one so tests can move time. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
