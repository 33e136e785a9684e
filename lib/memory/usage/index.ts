// The cost ledger: every model call's tokens and cost per user, and the day totals the budgets and caps read.
export {
  addUsage,
  type DayUsage,
  dailyUsage,
  type Pricing,
  recordUsage,
  runCosts,
  spentOnDay,
  type TokenUsage,
  tokensOnDay,
  type UsageTotals,
  utcDay,
} from "./usage";
