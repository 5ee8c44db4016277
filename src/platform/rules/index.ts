// Rules: the rule service, the module's entry from outside it. Its other
// parts are imported from their own files: the condition model (model.ts),
// its input forms and expression string (inputs.ts, expression.ts), action
// validation (actions.ts), evaluation (evaluate.ts), the compiled index
// (compiled.ts), batch evaluation (batch.ts), the engine that plans each
// ingested batch (rules-engine.ts) and the action runner (action-runner.ts).
export { RuleService, type LoadedRule } from './rule-service.js';
