// Rules: the condition model, its input forms and expression string, action
// validation, the rule service and the evaluation helpers. The rest of the
// module is imported from its own files: the compiled index (compiled.ts),
// batch evaluation (batch.ts), the engine that plans each ingested batch
// (engine.ts) and the action runner (runner.ts).
export type {
  AndCondition,
  AttributeCondition,
  AttributeOperator,
  Condition,
  LandmarkCondition,
  LandmarkConditionType,
  LandmarkTrigger,
  LeafCondition,
  Literal,
  NotCondition,
  OrCondition,
  ScheduleCondition,
} from './model.js';
export { conditionChannelIds, isLandmark, landmarkIds, normalise, triggerOf } from './model.js';
export { generateExpression, parseExpression } from './expression.js';
export { conditionsObjectOf, parseConditionsObject, parseLogicalCondition, toConditionsObject } from './inputs.js';
export { ConditionError, CONVERSION_FAILED, ExpressionSyntaxError } from './errors.js';
export type { RuleAction, WebhookAction, ActionType } from './actions.js';
export { SECRET_MASK, TRIGGERING_DEVICE } from './actions.js';
export { compareValues, evaluateCondition, localTime, scheduleHolds, type EvaluationContext } from './evaluate.js';
export { RuleService, type LoadedRule } from './service.js';
