// The error a rule's condition is refused with, for tests that check its
// words: thrown anything else, or nothing, the test fails.
import { ConditionError, ExpressionSyntaxError } from '../../src/platform/rules/errors.js';
import { parseExpression } from '../../src/platform/rules/expression.js';

/** The syntax error parsing `source` throws. */
export function syntaxError(source: string): ExpressionSyntaxError {
  try {
    parseExpression(source);
  } catch (error) {
    if (error instanceof ExpressionSyntaxError) return error;
    throw error;
  }
  throw new Error(`parsed: ${source}`);
}

/** The ConditionError `f` throws. */
export function conditionError(f: () => unknown): ConditionError {
  try {
    f();
  } catch (error) {
    if (error instanceof ConditionError) return error;
    throw error;
  }
  throw new Error('no error');
}
