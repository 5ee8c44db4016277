// The logger tests hand to the parts they build themselves: warnings and
// errors, as text, so that a failing test's output shows what went wrong
// without every part's info lines.
import { Logger } from '../../src/log.js';

export const testLog = new Logger({ level: 'warn', format: 'text' });
