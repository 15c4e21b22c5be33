import { z } from 'zod';
import { BUSINESS_NAME_MAX, FACTOR_KEYS, normalizeWebsiteUrl, WEBSITE_URL_MAX, WEBSITE_URL_PATTERN, websiteUrlProblem } from './analysis-rules';
import { safeChars } from './text';

/*
 * The free analysis tool: requests and the full scorecard answer (spec section 3). The small pure rules the tool and
 * the API must agree on are in ./analysis-rules (no zod: the tool's pages use them without loading zod) and are
 * re-exported here.
 */
export * from './analysis-rules';


// ---------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .apply(safeChars())
    .optional()
    .transform((v) => (v ? v : undefined));

/** An optional website address under the website mode's rule; https:// is added when the scheme is missing. */
const optionalWebsite = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const problem = value ? websiteUrlProblem(value) : null;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ pattern: WEBSITE_URL_PATTERN, maxLength: WEBSITE_URL_MAX })
  .optional()
  .transform((v) => (v ? normalizeWebsiteUrl(v) : undefined));

export const smbAnalysisRequestSchema = z.object({
  businessName: z.string().trim().min(1, 'Enter a business name').max(BUSINESS_NAME_MAX, 'Business name is too long').apply(safeChars({ minLength: 1 })),
  businessType: optionalText(60),
  location: optionalText(100),
  /** Same rule and normalisation as the website mode's `url` ('hartzbistro.example' -> 'https://hartzbistro.example'). */
  website: optionalWebsite,
});
export type SmbAnalysisRequest = z.input<typeof smbAnalysisRequestSchema>;

export const websiteAnalysisRequestSchema = z.object({
  url: z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const problem = websiteUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .meta({ pattern: WEBSITE_URL_PATTERN, maxLength: WEBSITE_URL_MAX })
    .transform(normalizeWebsiteUrl),
  mode: z.string().trim().min(1, 'Mode is required').max(40).apply(safeChars({ minLength: 1 })),
  location: optionalText(100),
});
export type WebsiteAnalysisRequest = z.input<typeof websiteAnalysisRequestSchema>;

export const analysisIdSchema = z.string().regex(/^[\w-]{8,64}$/, 'Unknown analysis id');

// ---------------------------------------------------------------------------------------------------------
// Response
// ---------------------------------------------------------------------------------------------------------

const score0to100 = z.number().min(0).max(100);

/** A detail entry: a value with where it came from. Any entry may be simulated (isMockData + source). */
export const detailEntrySchema = z.looseObject({
  isMockData: z.boolean().optional(),
  source: z.string().optional(),
});

export const verificationLinkSchema = z.object({
  title: z.string(),
  domain: z.string(),
  description: z.string(),
  url: z.string(),
});
export type VerificationLink = z.infer<typeof verificationLinkSchema>;

export const platformStatusSchema = z.enum(['found', 'not_found', 'unknown', 'error']);
export type PlatformStatus = z.infer<typeof platformStatusSchema>;

export const platformEvidenceSchema = z.looseObject({
  platform: z.string(),
  /** true found, false verified absent, null not checked (no keyless API) or failed. */
  found: z.boolean().nullable(),
  status: platformStatusSchema,
  searchTerm: z.string(),
  apiEndpoint: z.string(),
  dataSource: z.string(),
  verificationLinks: z.array(verificationLinkSchema),
  lastChecked: z.string(),
  error: z.string().nullable(),
  isMockData: z.boolean().optional(),
  source: z.string().optional(),
});
export type PlatformEvidence = z.infer<typeof platformEvidenceSchema>;

export const platformPrioritySchema = z.enum(['high', 'medium']);

export const visibilityDetailsSchema = z.looseObject({
  missingPlatforms: z.array(z.object({ platform: z.string(), found: z.boolean() })),
  platforms: z.array(
    z.object({ platform: z.string(), priority: platformPrioritySchema, status: platformStatusSchema, found: z.boolean().nullable() }),
  ),
  citationConsistency: score0to100,
  localPresence: score0to100,
  evidence: z.object({
    platformChecks: z.looseObject({
      yelp: platformEvidenceSchema,
      googleBusinessProfile: platformEvidenceSchema,
      facebook: platformEvidenceSchema,
    }),
  }),
  isMockData: z.boolean().optional(),
  source: z.string().optional(),
});

export const gradedSchema = z.looseObject({ score: score0to100, grade: z.string(), source: z.string(), isMockData: z.boolean().optional() });

/** One signal behind a factor's score: what it measures, the points earned, the value in words and its source. */
export const evidenceSignalSchema = z.object({
  key: z.string(),
  label: z.string(),
  measures: z.string(),
  status: z.enum(['verified', 'simulated', 'unverified']),
  points: z.number().min(0),
  maxPoints: z.number().min(0),
  /** The measured value in words, e.g. '4.3 stars' or 'Not verified: …'. */
  valueText: z.string(),
  /** Where the value came from: 'Google Places API', 'Our fetch of https://…', 'Simulated: …'. */
  source: z.string(),
  /** A page where a person can check the value, when one exists. */
  verificationUrl: z.string().nullable(),
  isMockData: z.boolean().optional(),
});
export type EvidenceSignal = z.infer<typeof evidenceSignalSchema>;

/** Where the business stands among same-type businesses in its location (competitive details `standing`). */
export const competitiveStandingSchema = z.object({
  location: z.string().nullable(),
  businessType: z.string(),
  competitorCount: z.number().int().min(0).nullable(),
  ratingPercentile: z.number().min(0).max(100).nullable(),
  reviewPercentile: z.number().min(0).max(100).nullable(),
  rating: z.number().nullable(),
  reviewCount: z.number().nullable(),
  medianReviews: z.number().nullable(),
  /** Why there is no standing (no location, too few competitors, lookup failed, not on Google); null when there is one. */
  reason: z.string().nullable(),
  isMockData: z.boolean().optional(),
  source: z.string().optional(),
});
export type CompetitiveStanding = z.infer<typeof competitiveStandingSchema>;

export const evidenceSchema = z.object({
  presentData: z.array(z.string()),
  missingData: z.array(z.string()),
  details: z.record(z.string(), z.unknown()),
  pageInfo: z.looseObject({ url: z.string(), analyzedAt: z.string(), isMockData: z.boolean().optional(), source: z.string().optional() }),
  performance: gradedSchema,
  security: gradedSchema,
  technologies: z.array(z.looseObject({ name: z.string(), category: z.string().optional(), isMockData: z.boolean().optional(), source: z.string().optional() })),
  dataPoints: z.number().int().min(0),
  totalPossiblePoints: z.number().int().min(0),
  /** Every signal behind the score (absent in reports stored before it existed). */
  signals: z.array(evidenceSignalSchema).optional(),
});
export type Evidence = z.infer<typeof evidenceSchema>;

export const prioritySchema = z.enum(['high', 'medium', 'low']);

export const savingsBasisSchema = z.object({
  task: z.string(),
  /** The ROI calculator input this time belongs to. */
  roiInput: z.enum(['customerService', 'appointmentScheduling', 'invoicingAndBilling', 'dataEntryAndReporting', 'followUpsAndReminders']),
  hoursPerWeek: z.number().min(0),
  costPerHour: z.number().min(0),
  efficiencyPercent: z.number().min(0).max(100),
  monthlySavings: z.number().min(0),
});
export type SavingsBasis = z.infer<typeof savingsBasisSchema>;

export const aiEnhancementSchema = z.object({
  priority: prioritySchema,
  automationPotential: score0to100,
  estimatedSavings: z.number().min(0),
  recommendations: z.array(z.string()),
  evidence: z.object({ dataPoints: z.number().int().min(0), automationTriggers: z.array(z.string()) }),
  savingsBasis: z.array(savingsBasisSchema).optional(),
});
export type AiEnhancement = z.infer<typeof aiEnhancementSchema>;

export const factorScoreSchema = z.object({
  score: score0to100,
  label: z.string(),
  color: z.string(),
  /**
   * false when nothing behind this score could be counted: label 'Not measured' (a factor, left out of the overall
   * score) or 'Not enough data' (the overall score, when fewer than 3 of the 6 factors were measured); score 0.
   */
  verified: z.boolean(),
  /** true when the score counts simulated figures (label 'Sample score'): an example, not the business's standing. */
  sample: z.boolean().optional(),
  /** Overall score only: how many of the 6 factors it is based on. */
  factorsMeasured: z.number().int().min(0).max(FACTOR_KEYS.length).optional(),
  insights: z.array(z.string()),
  evidence: evidenceSchema,
  aiEnhancement: aiEnhancementSchema.optional(),
});
export type FactorScore = z.infer<typeof factorScoreSchema>;


export const scoresSchema = z.object({
  visibility: factorScoreSchema.extend({ evidence: evidenceSchema.extend({ details: visibilityDetailsSchema }) }),
  reputation: factorScoreSchema,
  profileQuality: factorScoreSchema,
  websiteTrust: factorScoreSchema,
  contentQuality: factorScoreSchema,
  competitiveIntelligence: factorScoreSchema.extend({
    evidence: evidenceSchema.extend({ details: z.looseObject({ standing: competitiveStandingSchema.optional() }) }),
  }),
  overall: factorScoreSchema,
});
export type Scores = z.infer<typeof scoresSchema>;

export const recommendationSchema = z.object({
  priority: z.enum(['High', 'Medium', 'Low']),
  category: z.string(),
  title: z.string(),
  description: z.string(),
  actions: z.array(z.string()),
});
export type Recommendation = z.infer<typeof recommendationSchema>;

export const aiAssessmentSchema = z.object({
  overallReadiness: score0to100,
  totalPotentialSavings: z.number().min(0),
  topOpportunities: z.array(z.string()),
  implementationRoadmap: z.array(
    z.object({ phase: z.string(), description: z.string(), priority: prioritySchema, timeline: z.string() }),
  ),
  businessTypeAnalysis: z.object({
    detectedType: z.string().default('Service Business'),
    automationPotential: z.string().default('High'),
  }),
  automationSignals: z.array(z.object({ category: z.string(), strength: z.number().min(0).max(10), evidence: z.string().optional() })),
  detailedRecommendations: z.array(
    z.object({
      title: z.string(),
      description: z.string(),
      impact: z.string(),
      effort: z.string(),
      timeline: z.string(),
      monthlySavings: z.number().min(0).optional(),
    }),
  ),
  /** Every saving with the hours it assumes, priced like the ROI calculator. */
  savingsBreakdown: z.array(savingsBasisSchema),
  /** true when the hours, savings or readiness rest on simulated figures (the hand-off to /roi-calculator says so too). */
  basedOnSampleData: z.boolean().optional(),
  /** Weekly hours per ROI calculator input, to hand to /roi-calculator. */
  roiCalculatorInputs: z.object({
    customerService: z.number(),
    appointmentScheduling: z.number(),
    invoicingAndBilling: z.number(),
    dataEntryAndReporting: z.number(),
    followUpsAndReminders: z.number(),
    costPerHour: z.number(),
    automationEfficiency: z.number(),
  }),
});
export type AiAssessment = z.infer<typeof aiAssessmentSchema>;

export const dataSourceStatusSchema = z.enum(['live', 'simulated', 'error', 'not_applicable']);

/**
 * The earlier stored report of the same business, so the scorecard can show what changed: in SMB mode the same name,
 * location and website (a report without a website matches only another without one), in website mode the same
 * website and location. A website is one however it is written: scheme, `www.`, case, trailing slash, query and
 * fragment aside.
 */
export const previousReportSchema = z.object({
  id: z.string(),
  analyzedAt: z.string(),
  /** Score per factor and `overall` in that report; null where it was not measured or was a sample (nothing to compare). */
  scores: z.record(z.enum([...FACTOR_KEYS, 'overall']), z.number().min(0).max(100).nullable()),
});
export type PreviousReport = z.infer<typeof previousReportSchema>;

export const analysisResponseSchema = z.object({
  id: z.string(),
  mode: z.enum(['smb', 'website']),
  /** true when this answer is a stored analysis of the same business and location from the last 24 hours. */
  cached: z.boolean(),
  cacheNote: z.string().optional(),
  businessInfo: z.object({ businessName: z.string(), businessType: z.string(), location: z.string(), website: z.string() }),
  analyzedAt: z.string(),
  scores: scoresSchema,
  recommendations: z.array(recommendationSchema),
  aiAssessment: aiAssessmentSchema.optional(),
  dataSources: z.object({
    googlePlaces: dataSourceStatusSchema,
    yelp: dataSourceStatusSchema,
    website: dataSourceStatusSchema,
    social: z.literal('links_only'),
  }),
  scoringModel: z.string(),
  /** The latest earlier report of the same business (name, location and website), when one exists. */
  previous: previousReportSchema.nullable().optional(),
});
export type AnalysisResponse = z.infer<typeof analysisResponseSchema>;
