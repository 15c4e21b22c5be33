import {
  monthlySavingsFor,
  usd,
  ROI_DEFAULT_COST_PER_HOUR,
  type AiAssessment,
  type AiEnhancement,
  type FactorKey,
  type SavingsBasis,
} from '@site/contracts/analysis';
import type { AnalysisFacts } from './types';
import type { FactorResult, Signal } from './scoring';

/*
 * The AI readiness assessment. Weekly hours per task come from rules per business type, adjusted by the signals
 * found (review volume, online booking, contact form). Every saving is priced with the ROI calculator's model:
 * hours/week × 4.33 × $25 × 70% (the calculator's default efficiency), so the report's numbers can be handed
 * to /roi-calculator unchanged (roiCalculatorInputs).
 */

type RoiInput = SavingsBasis['roiInput'];
export const ASSESSMENT_EFFICIENCY_PERCENT = 70;

interface TaskRule {
  roiInput: RoiInput;
  task: string;
  hoursPerWeek: number;
  effort: 'Low' | 'Medium' | 'High';
  timeline: string;
  description: string;
}

type TypeKey = 'restaurant' | 'retail' | 'service' | 'healthcare';

const TYPE_RULES: Record<TypeKey, { detectedType: string; tasks: TaskRule[] }> = {
  restaurant: {
    detectedType: 'Restaurant Business',
    tasks: [
      { roiInput: 'customerService', task: 'Phone orders, menu and hours questions', hoursPerWeek: 12, effort: 'Low', timeline: '2-4 weeks', description: 'An AI assistant on the website, Google and the phone line answers menu, hours and allergy questions and takes orders.' },
      { roiInput: 'appointmentScheduling', task: 'Reservations and table management', hoursPerWeek: 8, effort: 'Low', timeline: '1-2 weeks', description: 'Online reservations with automatic confirmations and reminders reduce no-shows and calls.' },
      { roiInput: 'dataEntryAndReporting', task: 'Inventory counts and sales reporting', hoursPerWeek: 6, effort: 'Medium', timeline: '4-6 weeks', description: 'POS data flows into inventory and daily reports automatically.' },
      { roiInput: 'invoicingAndBilling', task: 'Supplier invoices and catering billing', hoursPerWeek: 4, effort: 'Medium', timeline: '3-4 weeks', description: 'Invoices are captured, matched and paid with approval rules.' },
      { roiInput: 'followUpsAndReminders', task: 'Review requests and replies', hoursPerWeek: 4, effort: 'Low', timeline: '1-2 weeks', description: 'Automatic review requests after orders and drafted replies to every review.' },
    ],
  },
  retail: {
    detectedType: 'Retail Business',
    tasks: [
      { roiInput: 'customerService', task: 'Stock, price and order-status questions', hoursPerWeek: 10, effort: 'Low', timeline: '2-4 weeks', description: 'An assistant answers product availability and order-status questions from live inventory.' },
      { roiInput: 'dataEntryAndReporting', task: 'Inventory updates and reorder reports', hoursPerWeek: 10, effort: 'Medium', timeline: '4-6 weeks', description: 'Stock levels sync between POS and online store; reorders are suggested automatically.' },
      { roiInput: 'invoicingAndBilling', task: 'Supplier invoices and reconciliation', hoursPerWeek: 5, effort: 'Medium', timeline: '3-4 weeks', description: 'Invoices are captured and reconciled against deliveries.' },
      { roiInput: 'followUpsAndReminders', task: 'Customer follow-ups and review requests', hoursPerWeek: 5, effort: 'Low', timeline: '1-2 weeks', description: 'Post-purchase messages, review requests and win-back campaigns run on their own.' },
      { roiInput: 'appointmentScheduling', task: 'Personal shopping and pickup slots', hoursPerWeek: 2, effort: 'Low', timeline: '1 week', description: 'Customers book pickup or consultation slots online.' },
    ],
  },
  service: {
    detectedType: 'Service Business',
    tasks: [
      { roiInput: 'appointmentScheduling', task: 'Booking, rescheduling and reminders', hoursPerWeek: 10, effort: 'Low', timeline: '1-2 weeks', description: 'Online booking with automatic confirmations, reminders and rescheduling.' },
      { roiInput: 'customerService', task: 'Quotes, pricing and availability questions', hoursPerWeek: 10, effort: 'Low', timeline: '2-4 weeks', description: 'An AI assistant answers common questions and qualifies leads around the clock.' },
      { roiInput: 'invoicingAndBilling', task: 'Estimates, invoices and payment chasing', hoursPerWeek: 8, effort: 'Medium', timeline: '3-4 weeks', description: 'Invoices go out when a job closes; reminders chase late payments.' },
      { roiInput: 'followUpsAndReminders', task: 'Follow-ups, review requests and rebooking', hoursPerWeek: 6, effort: 'Low', timeline: '1-2 weeks', description: 'Automatic follow-ups after each job ask for reviews and rebook recurring work.' },
      { roiInput: 'dataEntryAndReporting', task: 'Job notes, CRM entry and reports', hoursPerWeek: 5, effort: 'Medium', timeline: '4-6 weeks', description: 'Forms and calls land in the CRM without retyping; weekly reports build themselves.' },
    ],
  },
  healthcare: {
    detectedType: 'Healthcare Practice',
    tasks: [
      { roiInput: 'appointmentScheduling', task: 'Appointment booking and reminders', hoursPerWeek: 12, effort: 'Low', timeline: '2-3 weeks', description: 'Patients book online; reminders and waitlist fills cut no-shows.' },
      { roiInput: 'customerService', task: 'Phone questions about hours, insurance and directions', hoursPerWeek: 12, effort: 'Medium', timeline: '3-4 weeks', description: 'An assistant answers routine questions and routes clinical ones to staff (no medical advice).' },
      { roiInput: 'invoicingAndBilling', task: 'Billing and insurance follow-up', hoursPerWeek: 10, effort: 'High', timeline: '6-8 weeks', description: 'Claims status checks and patient statements are automated.' },
      { roiInput: 'dataEntryAndReporting', task: 'Intake forms and record entry', hoursPerWeek: 8, effort: 'Medium', timeline: '4-6 weeks', description: 'Digital intake forms fill the practice system directly.' },
      { roiInput: 'followUpsAndReminders', task: 'Recall reminders and review requests', hoursPerWeek: 8, effort: 'Low', timeline: '1-2 weeks', description: 'Recall and follow-up messages go out on schedule.' },
    ],
  },
};

/** Which factor each task's savings belong to (each task to exactly one factor, so the factors add up). */
const TASK_FACTOR: Record<RoiInput, FactorKey> = {
  followUpsAndReminders: 'reputation',
  customerService: 'profileQuality',
  appointmentScheduling: 'contentQuality',
  invoicingAndBilling: 'websiteTrust',
  dataEntryAndReporting: 'competitiveIntelligence',
};

export function typeKey(businessType: string): TypeKey {
  const t = businessType.toLowerCase();
  if (t.includes('restaurant')) return 'restaurant';
  if (t.includes('retail')) return 'retail';
  if (t.includes('health')) return 'healthcare';
  return 'service';
}

interface AssessmentInput {
  facts: AnalysisFacts;
  signals: readonly Signal[];
  factors: Record<FactorKey | 'overall', FactorResult>;
}

/** Weekly hours per task after adjusting the type's rules by what the analysis found. */
export function taskHours(facts: AnalysisFacts): Array<TaskRule & { adjustedHours: number; why: string[] }> {
  const rules = TYPE_RULES[typeKey(facts.query.businessType)].tasks;
  const reviews = (facts.places.profile?.reviewCount ?? 0) + (facts.yelp.listing?.reviewCount ?? 0);
  const w = facts.website.facts;
  return rules.map((r) => {
    let hours = r.hoursPerWeek;
    const why: string[] = [`${r.hoursPerWeek} h/week typical for a ${TYPE_RULES[typeKey(facts.query.businessType)].detectedType.toLowerCase()}`];
    if (r.roiInput === 'customerService' && reviews > 200) {
      hours *= 1.3;
      why.push(`+30% for high customer volume (${reviews} reviews)`);
    }
    if (r.roiInput === 'customerService' && w && !w.contact.contactForm && w.contact.emails.length === 0) {
      hours += 1;
      why.push('+1 h: no contact form or email, so questions arrive by phone');
    }
    if (r.roiInput === 'appointmentScheduling' && w?.booking.present) {
      hours *= 0.5;
      why.push('-50%: online booking/ordering already in place');
    }
    if (r.roiInput === 'followUpsAndReminders' && reviews >= 100) {
      hours *= 0.8;
      why.push('-20%: review volume already healthy');
    }
    return { ...r, adjustedHours: Math.min(40, Math.round(hours)), why };
  });
}

const strength = (n: number) => Math.max(0, Math.min(10, Math.round(n)));

export function buildAiAssessment({ facts, signals, factors }: AssessmentInput): {
  assessment: AiAssessment;
  enhancements: Record<FactorKey | 'overall', AiEnhancement>;
} {
  const type = typeKey(facts.query.businessType);
  const tasks = taskHours(facts);
  const breakdown: SavingsBasis[] = tasks.map((t) => ({
    task: t.task,
    roiInput: t.roiInput,
    hoursPerWeek: t.adjustedHours,
    costPerHour: ROI_DEFAULT_COST_PER_HOUR,
    efficiencyPercent: ASSESSMENT_EFFICIENCY_PERCENT,
    monthlySavings: monthlySavingsFor(t.adjustedHours, ROI_DEFAULT_COST_PER_HOUR, ASSESSMENT_EFFICIENCY_PERCENT),
  }));
  const totalHours = breakdown.reduce((n, b) => n + b.hoursPerWeek, 0);
  // Same rounding as the calculator: one product over the total hours.
  const totalPotentialSavings = monthlySavingsFor(totalHours, ROI_DEFAULT_COST_PER_HOUR, ASSESSMENT_EFFICIENCY_PERCENT);
  const hoursOf = (k: RoiInput) => breakdown.find((b) => b.roiInput === k)?.hoursPerWeek ?? 0;

  const w = facts.website.facts;
  const reviews = (facts.places.profile?.reviewCount ?? 0) + (facts.yelp.listing?.reviewCount ?? 0);
  const rating = facts.places.profile?.rating ?? null;
  const automationSignals = [
    { category: 'Customer communication', strength: strength(3 + Math.log10(reviews + 1) * 2.5), evidence: `${reviews} reviews across Google and Yelp suggest the volume of customer questions` },
    {
      category: 'Appointment & booking',
      strength: type === 'retail' ? 3 : w ? (w.booking.present ? 4 : 9) : 7,
      evidence: w ? (w.booking.present ? 'Online booking already present' : 'No online booking on the website') : 'Website not analyzed',
    },
    { category: 'Review management', strength: reviews < 25 ? 8 : rating !== null && rating < 4.2 ? 7 : 5, evidence: rating !== null ? `Google rating ${rating.toFixed(1)} from ${facts.places.profile?.reviewCount ?? 0} reviews` : 'No Google rating found' },
    { category: 'Online presence', strength: factors.visibility.verified ? strength(10 - factors.visibility.score / 10) : 5, evidence: `Visibility score ${factors.visibility.verified ? factors.visibility.score : 'not verified'}` },
    { category: 'Website lead capture', strength: w ? (w.contact.contactForm ? 4 : 8) : 5, evidence: w ? (w.contact.contactForm ? 'Contact form present' : 'No contact form on the page') : 'Website not analyzed' },
    { category: 'Reporting & data entry', strength: { retail: 8, restaurant: 7, healthcare: 7, service: 5 }[type], evidence: 'Typical back-office load for this business type' },
  ];
  const avgSignal = automationSignals.reduce((n, s) => n + s.strength, 0) / automationSignals.length;
  const overallReadiness = Math.round(0.5 * (factors.overall.verified ? factors.overall.score : 50) + 0.5 * avgSignal * 10);

  const ranked = [...tasks].sort((a, b) => b.adjustedHours - a.adjustedHours);
  const savingOf = (t: TaskRule) => breakdown.find((b) => b.roiInput === t.roiInput)!.monthlySavings;
  const impactOf = (s: number) => (s >= 500 ? 'High' : s >= 200 ? 'Medium' : 'Low');

  const enhancements = {} as Record<FactorKey | 'overall', AiEnhancement>;
  const factorKeys: FactorKey[] = ['visibility', 'reputation', 'profileQuality', 'websiteTrust', 'contentQuality', 'competitiveIntelligence'];
  for (const f of factorKeys) {
    const result = factors[f];
    const own = breakdown.filter((b) => TASK_FACTOR[b.roiInput] === f);
    const triggers = signals.filter((s) => s.factor === f && s.status !== 'unverified' && s.fraction < 0.8 && s.insight).map((s) => s.insight);
    const gap = result.verified ? 100 - result.score : 50;
    enhancements[f] = {
      priority: !result.verified ? 'medium' : result.score < 40 ? 'high' : result.score < 70 ? 'medium' : 'low',
      automationPotential: Math.round(Math.min(100, gap * 0.6 + (own.length ? ASSESSMENT_EFFICIENCY_PERCENT * 0.4 : 10))),
      estimatedSavings: own.reduce((n, b) => n + b.monthlySavings, 0),
      recommendations: own.length
        ? own.map((b) => `${tasks.find((t) => t.roiInput === b.roiInput)!.description} (${b.hoursPerWeek} h/week, about ${usd(b.monthlySavings)}/month)`)
        : ['Automate listing updates so hours and details stay identical on every platform'],
      evidence: { dataPoints: result.dataPoints, automationTriggers: triggers },
      savingsBasis: own,
    };
  }
  enhancements.overall = {
    priority: overallReadiness >= 60 ? 'high' : overallReadiness >= 40 ? 'medium' : 'low',
    automationPotential: Math.round(Math.min(100, avgSignal * 10)),
    estimatedSavings: totalPotentialSavings,
    recommendations: ranked.slice(0, 3).map((t) => t.description),
    evidence: { dataPoints: factors.overall.dataPoints, automationTriggers: automationSignals.filter((s) => s.strength >= 7).map((s) => s.category) },
    savingsBasis: breakdown,
  };

  const assessment: AiAssessment = {
    overallReadiness: Math.max(0, Math.min(100, overallReadiness)),
    totalPotentialSavings,
    topOpportunities: ranked.slice(0, 3).map((t) => `${t.task}: about ${usd(savingOf(t))}/month (${t.adjustedHours} h/week at ${usd(ROI_DEFAULT_COST_PER_HOUR)}/h, ${ASSESSMENT_EFFICIENCY_PERCENT}% automated)`),
    implementationRoadmap: [
      { phase: 'Phase 1: Foundation and quick wins', description: `Fix the listing and website gaps in the action plan, then automate ${ranked[0]!.task.toLowerCase()}.`, priority: 'high', timeline: '0-30 days' },
      { phase: 'Phase 2: Core automation', description: `Automate ${ranked[1]!.task.toLowerCase()} and ${ranked[2]!.task.toLowerCase()}.`, priority: 'medium', timeline: '1-3 months' },
      { phase: 'Phase 3: Integration and reporting', description: `Connect the remaining work (${ranked.slice(3).map((t) => t.task.toLowerCase()).join('; ')}) and review results monthly.`, priority: 'low', timeline: '3-6 months' },
    ],
    businessTypeAnalysis: {
      detectedType: TYPE_RULES[type].detectedType,
      automationPotential: totalPotentialSavings >= 1500 ? 'High' : totalPotentialSavings >= 700 ? 'Medium' : 'Low',
    },
    automationSignals,
    detailedRecommendations: ranked.map((t) => ({
      title: t.task,
      description: `${t.description} Assumes ${t.adjustedHours} h/week (${t.why.join('; ')}).`,
      impact: impactOf(savingOf(t)),
      effort: t.effort,
      timeline: t.timeline,
      monthlySavings: savingOf(t),
    })),
    savingsBreakdown: breakdown,
    // Hours follow review counts and the website's booking and contact features; readiness follows the overall score.
    basedOnSampleData: [facts.places.status, facts.yelp.status, facts.website.status].includes('simulated'),
    roiCalculatorInputs: {
      customerService: hoursOf('customerService'),
      appointmentScheduling: hoursOf('appointmentScheduling'),
      invoicingAndBilling: hoursOf('invoicingAndBilling'),
      dataEntryAndReporting: hoursOf('dataEntryAndReporting'),
      followUpsAndReminders: hoursOf('followUpsAndReminders'),
      costPerHour: ROI_DEFAULT_COST_PER_HOUR,
      automationEfficiency: ASSESSMENT_EFFICIENCY_PERCENT,
    },
  };
  return { assessment, enhancements };
}
