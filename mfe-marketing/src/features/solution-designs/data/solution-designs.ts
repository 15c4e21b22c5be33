import type { PageMeta } from '@site/contracts/manifest';
import { solutionDesignBasics, solutionDesignMeta, type SolutionDesignSlug } from './solution-design-meta';

type TitledText = { title: string; body: string };
export type Outcome = { figure: string; label: string; body: string };
export type Phase = { duration: string; body: string };

/** The fixed names of the three phases every solution design is delivered in. */
export const PHASE_NAMES = ['Assessment & Planning', 'Pilot Implementation', 'Full Deployment'] as const;

export type SolutionDesign = {
  slug: string;
  town: string;
  townPath: string;
  industry: string;
  headline: string;
  lead: string;
  /** The three Our Approach cards: Problem Analysis, Solution Design, Expected Outcomes. */
  approach: { problemAnalysis: string; solutionDesign: string; expectedOutcomes: string };
  challenges: [TitledText, TitledText];
  solutions: [TitledText & { features: [string, string, string] }, TitledText & { features: [string, string, string] }];
  outcomes: [Outcome, Outcome, Outcome];
  phases: [Phase, Phase, Phase];
  meta: PageMeta;
};

type Draft = Omit<SolutionDesign, 'meta' | 'town' | 'industry' | 'headline'>;
/** A design's copy with its town, industry, headline and metadata (solution-design-meta.ts, the route table's part). */
const withMeta = (d: Draft): SolutionDesign => {
  const { town, industry, headline } = solutionDesignBasics[d.slug as SolutionDesignSlug];
  return { ...d, town, industry, headline, meta: solutionDesignMeta[d.slug as SolutionDesignSlug] };
};

export const solutionDesigns: SolutionDesign[] = [
  withMeta({
    slug: 'danville-restaurant-automation',
    townPath: '/local-services/danville-ai-automation',
    lead: 'A family restaurant on Hartz Avenue loses orders every Friday night because one host answers the phone, seats walk-ins and runs take-out at once. This is how we would take the phone off that host’s hands.',
    approach: {
      problemAnalysis:
        'We log a week of calls and tickets: how many orders arrive by phone, how long each takes, and which ones are entered wrong. Peak-hour missed calls tell us how much revenue walks away.',
      solutionDesign:
        'An ordering assistant on text and web chat that knows the menu, modifiers and prep times, sends confirmed tickets to the kitchen printer and hands anything unusual to a person.',
      expectedOutcomes:
        'Fewer wrong tickets, a host who can greet guests again, and take-out that keeps coming in during the rush instead of ringing out.',
    },
    challenges: [
      {
        title: 'Phone orders during the dinner rush',
        body: 'Between 5 and 8 pm the phone rings while the host is seating tables; calls go unanswered and callers order from somewhere else.',
      },
      {
        title: 'Mistakes between phone and kitchen',
        body: 'Orders written by hand and re-keyed into the POS lose modifiers and allergy notes, which means remade dishes and unhappy regulars.',
      },
    ],
    solutions: [
      {
        title: 'AI ordering assistant',
        body: 'Customers order by text or website chat; the assistant reads each order back and sends it straight to the POS.',
        features: ['Menu, modifiers and allergy notes from your own POS', 'Read-back confirmation before the ticket prints', 'Pickup times based on real kitchen load'],
      },
      {
        title: 'Reservations and guest follow-up',
        body: 'Table requests confirmed automatically, reminders sent the afternoon before, and a thank-you with a review link the next day.',
        features: ['Confirmations and reminders by text', 'Large parties and catering routed to the owner', 'Review requests after each visit'],
      },
    ],
    outcomes: [
      { figure: 'Up to 95%', label: 'fewer order errors', body: 'Read-back confirmation and direct POS entry remove the re-keying step where most mistakes happen.' },
      { figure: 'Up to 40%', label: 'better operational efficiency', body: 'Hosts and servers spend their evening with guests instead of on the phone.' },
      { figure: '24/7', label: 'order and booking intake', body: 'Orders and reservation requests are taken after closing and queued for the morning.' },
    ],
    phases: [
      { duration: 'Week 1', body: 'Call logging, menu and POS export, and a map of how an order travels from phone to plate.' },
      { duration: 'Weeks 2-3', body: 'Take-out ordering by text goes live on weeknights only, with staff checking every ticket.' },
      { duration: 'Weeks 4-6', body: 'Weekend service, reservations and follow-ups switched on; the team gets a one-page playbook.' },
    ],
  }),
  withMeta({
    slug: 'san-ramon-tech-automation',
    townPath: '/local-services/san-ramon-business-automation',
    lead: 'A 40-person software company near Bishop Ranch ships every two weeks, and every release costs two engineers most of a day. This design turns that day into a pipeline run.',
    approach: {
      problemAnalysis:
        'We shadow one release and one week of the support queue, timing each manual step: changelog writing, environment checks, tagging, announcing, and routing customer tickets.',
      solutionDesign:
        'A release pipeline triggered by merge, with generated notes and staged rollout, plus an AI triage step that labels incoming tickets and assigns them to the owner of the affected code.',
      expectedOutcomes:
        'Releases measured in minutes rather than afternoons, engineers back on product work, and customers who hear back from the right person first.',
    },
    challenges: [
      {
        title: 'Release day eats the sprint',
        body: 'Checklists live in a wiki, environment variables drift between staging and production, and each release needs the two people who remember the steps.',
      },
      {
        title: 'Support tickets bounce between teams',
        body: 'Tickets land in one shared inbox and get forwarded three times before reaching the engineer who can fix them.',
      },
    ],
    solutions: [
      {
        title: 'Automated release pipeline',
        body: 'Merges to main run tests, build, tag, deploy to staging and, after approval, to production, with notes written from the merged pull requests.',
        features: ['Release notes generated from pull requests', 'Staged rollout with automatic rollback', 'Slack announcement with the change list'],
      },
      {
        title: 'AI ticket triage',
        body: 'Every new ticket is summarised, labelled by product area and severity, and assigned using the code-ownership file.',
        features: ['Duplicate tickets linked automatically', 'Severity suggested from customer impact', 'Owner assigned from CODEOWNERS'],
      },
    ],
    outcomes: [
      { figure: 'Up to 80%', label: 'less deployment time', body: 'Scripted, repeatable releases replace the manual checklist.' },
      { figure: 'Up to 60%', label: 'better development efficiency', body: 'Engineers reclaim the hours spent on releases and ticket forwarding.' },
      { figure: '1 hop', label: 'from ticket to owner', body: 'Tickets reach the responsible engineer on the first assignment.' },
    ],
    phases: [
      { duration: 'Weeks 1-2', body: 'Release shadowing, repository and CI review, and a written pipeline design agreed with the tech lead.' },
      { duration: 'Weeks 3-5', body: 'Pipeline runs for one service alongside the manual process; ticket triage runs in suggest-only mode.' },
      { duration: 'Weeks 6-8', body: 'All services on the pipeline, triage assigns automatically, and your engineers own the configuration.' },
    ],
  }),
  withMeta({
    slug: 'walnut-creek-retail-automation',
    townPath: '/local-services/walnut-creek-ai-solutions',
    lead: 'A clothing boutique a block from Broadway Plaza sells online and in store from the same stockroom, and the two never agree. This design keeps the counts honest and the checkout line short.',
    approach: {
      problemAnalysis:
        'We compare a month of POS sales with online orders and stock counts to find where items oversell, and time the checkout line on a Saturday afternoon.',
      solutionDesign:
        'One inventory source shared by the POS and the web shop, a shopper assistant that answers size and availability questions, and mobile checkout at the rack.',
      expectedOutcomes:
        'Online orders that can always be filled, shoppers who get answers without waiting for staff, and a line that clears before people give up.',
    },
    challenges: [
      {
        title: 'Online and in-store stock disagree',
        body: 'An item sells at the register while the web shop still lists it, and the store has to cancel the online order and apologise.',
      },
      {
        title: 'Weekend checkout lines',
        body: 'On busy Saturdays shoppers queue behind returns and gift wrapping, and some put their items down and leave.',
      },
    ],
    solutions: [
      {
        title: 'Unified inventory with shopper chat',
        body: 'POS and web shop share stock in real time; a chat assistant answers “do you have this in a medium?” from the same numbers.',
        features: ['Stock synced within a minute of each sale', 'Low-stock alerts for best-sellers', 'Holds placed for shoppers on their way'],
      },
      {
        title: 'Faster checkout',
        body: 'Staff take payment on a phone at the rack, pre-orders are bagged before pickup, and returns go to a separate quick lane.',
        features: ['Mobile payment anywhere on the floor', 'Pickup orders ready on arrival', 'Digital receipts that feed the customer list'],
      },
    ],
    outcomes: [
      { figure: 'Up to 95%', label: 'inventory accuracy', body: 'One source of stock removes double-selling between channels.' },
      { figure: 'Up to 70%', label: 'shorter checkout time', body: 'Payment at the rack and ready pickups take pressure off the register.' },
      { figure: '24/7', label: 'answers for shoppers', body: 'Availability questions answered after hours, when most browsing happens.' },
    ],
    phases: [
      { duration: 'Weeks 1-2', body: 'Stock reconciliation, POS and web-shop audit, and a Saturday checkout time study.' },
      { duration: 'Weeks 3-4', body: 'Inventory sync for one product category and shopper chat on the website.' },
      { duration: 'Weeks 5-7', body: 'All categories synced, mobile checkout on the floor, and staff trained before the holiday season.' },
    ],
  }),
  withMeta({
    slug: 'pleasanton-manufacturing-automation',
    townPath: '/local-services/pleasanton-automation-services',
    lead: 'A Pleasanton manufacturer of precision components tracks output on clipboards and finds defects at final inspection. This design moves both to the moment they happen.',
    approach: {
      problemAnalysis:
        'We walk each line with the shift supervisor, collect a month of tally sheets and inspection reports, and trace how a defect found at the end maps back to a station.',
      solutionDesign:
        'Station-level counts captured by scanner or tablet, statistical checks that alert when measurements drift, and supplier orders drafted from real consumption.',
      expectedOutcomes:
        'Supervisors who see the line as it runs, defects caught while the batch can still be corrected, and material that arrives before it runs out.',
    },
    challenges: [
      {
        title: 'Production data arrives a day late',
        body: 'Counts are written on paper at each station and typed into a spreadsheet the next morning, so bottlenecks are found after the shift that suffered them.',
      },
      {
        title: 'Defects found at final inspection',
        body: 'Measurements drift for hours before anyone notices, and whole batches are scrapped or reworked at the end of the line.',
      },
    ],
    solutions: [
      {
        title: 'Live production tracking',
        body: 'Each station records completed units with a scan; a board on the floor and a report in the office update as the shift runs.',
        features: ['Counts per station, per hour', 'Bottleneck alerts to the supervisor', 'Shift report compiled automatically'],
      },
      {
        title: 'Quality alerts and supplier workflow',
        body: 'Inline measurements are checked against control limits, and material use drives draft purchase orders for approval.',
        features: ['Drift alerts before parts go out of tolerance', 'Defects traced to station and batch', 'Reorders drafted at a set stock level'],
      },
    ],
    outcomes: [
      { figure: 'Up to 50%', label: 'higher production efficiency', body: 'Bottlenecks are visible during the shift, not the next morning.' },
      { figure: 'Up to 90%', label: 'lower defect rates', body: 'Drift is corrected at the station before a batch is lost.' },
      { figure: 'Same day', label: 'shift reporting', body: 'The report is ready when the shift ends, with no retyping.' },
    ],
    phases: [
      { duration: 'Weeks 1-2', body: 'Line walk, data collection and a station-by-station plan agreed with operations and quality.' },
      { duration: 'Weeks 3-6', body: 'Tracking and quality alerts on one line, running beside the paper process for comparison.' },
      { duration: 'Weeks 7-10', body: 'Every line connected, supplier workflow live, and supervisors trained to adjust the limits themselves.' },
    ],
  }),
];
