// How a condition that cannot be converted is refused: invalid input, the message the
// platform used for this failure, and where it failed in `error` (docs/CONTRACT.md#diff-conversion-400).
import { CodedError, revivable, type DomainError, type ErrorCode, type ErrorDetails } from '../../errors.js';
import { invalid } from '../../errors.js';

const CONVERSION_FAILED = 'failed to convert to valid conditions';

/** A condition input that is not valid; `where` names the field (`conditions`, `conditionsObject.items.0.ids`…). */
export class ConditionError extends CodedError {
  readonly code: ErrorCode = 'CONDITION_INVALID';
  constructor(
    readonly where: string,
    readonly reason: string,
  ) {
    super(`${where}: ${reason}`);
    this.name = 'ConditionError';
  }

  override details(): ErrorDetails {
    return { where: this.where, reason: this.reason };
  }

  static {
    revivable(
      'CONDITION_INVALID',
      ({ details = {} }) => new ConditionError(String(details.where), String(details.reason)),
    );
  }

  toDomainError(): DomainError {
    return invalid(CONVERSION_FAILED, this.message);
  }
}

/** A syntax error in an expression string, at a character offset (0-based). */
export class ExpressionSyntaxError extends ConditionError {
  override readonly code: ErrorCode = 'EXPRESSION_SYNTAX';
  constructor(
    where: string,
    readonly position: number,
    /** what is wrong there, without the position */
    readonly syntax: string,
  ) {
    super(where, `at position ${position}: ${syntax}`);
    this.name = 'ExpressionSyntaxError';
  }

  override details(): ErrorDetails {
    return { where: this.where, position: this.position, syntax: this.syntax };
  }

  static {
    revivable(
      'EXPRESSION_SYNTAX',
      ({ details = {} }) =>
        new ExpressionSyntaxError(String(details.where), Number(details.position), String(details.syntax)),
    );
  }
}
