// How a condition that cannot be converted is refused: invalid input, the message the
// platform used for this failure, and where it failed in `error` (docs/CONTRACT.md#diff-conversion-400).
import { DomainError, invalid } from '../../errors.js';

const CONVERSION_FAILED = 'failed to convert to valid conditions';

/** A condition input that is not valid; `where` names the field (`conditions`, `conditionsObject.items.0.ids`…). */
export class ConditionError extends Error {
  constructor(
    readonly where: string,
    readonly reason: string,
  ) {
    super(`${where}: ${reason}`);
    this.name = 'ConditionError';
  }

  toDomainError(): DomainError {
    return invalid(CONVERSION_FAILED, this.message);
  }
}

/** A syntax error in an expression string, at a character offset (0-based). */
export class ExpressionSyntaxError extends ConditionError {
  constructor(
    where: string,
    readonly position: number,
    reason: string,
  ) {
    super(where, `at position ${position}: ${reason}`);
    this.name = 'ExpressionSyntaxError';
  }
}
