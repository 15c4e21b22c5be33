import type { PageMeta } from '@site/contracts/manifest';
import { caseStudyMeta } from './case-study-meta';

type TitledText = { title: string; body: string };

/** A project page (restaurant order bot, retail assistant): one layout for both. */
export type ProjectStudy = {
  kind: 'project';
  key: string;
  eyebrow: string;
  headline: string;
  lead: string;
  heroStats: [{ figure: string; label: string }, { figure: string; label: string }, { figure: string; label: string }];
  problem: { title: string; body: string; points: string[] };
  benefits: [TitledText, TitledText, TitledText, TitledText];
  features: [string, string, string, string, string, string, string, string];
  sampleResults: { title: string; rows: { label: string; before: string; after: string }[] };
  cta: { title: string; body: string };
  meta: PageMeta;
};

export type ServiceBusinessStudy = {
  kind: 'service-business';
  key: string;
  headline: string;
  lead: string;
  problems: [string, string, string, string];
  benefits: [TitledText & { figure: string }, TitledText & { figure: string }, TitledText & { figure: string }, TitledText & { figure: string }];
  story: { title: string; body: string; quote: string; attribution: string };
  workflows: [TitledText, TitledText, TitledText];
  operations: string[];
  analytics: string[];
  process: [TitledText, TitledText, TitledText, TitledText];
  meta: PageMeta;
};

export type RestaurantCaseStudy = {
  kind: 'restaurant-case';
  key: string;
  headline: string;
  lead: string;
  overview: string;
  challenge: { body: string; points: string[] };
  steps: TitledText[];
  metrics: { label: string; before?: string; after: string }[];
  results: string[];
  meta: PageMeta;
};

export type CaseStudy = ProjectStudy | ServiceBusinessStudy | RestaurantCaseStudy;

export const caseStudies: CaseStudy[] = [
  {
    kind: 'project',
    key: 'restaurant-order-bot',
    eyebrow: 'Project · Restaurant',
    headline: 'Local Restaurant Order Bot',
    lead: 'A messaging-app ordering bot for a neighbourhood restaurant: customers order in a chat they already use, and the kitchen gets a clean ticket every time.',
    heroStats: [
      { figure: '35%', label: 'revenue increase' },
      { figure: '60%', label: 'fewer phone calls' },
      { figure: '<30 s', label: 'to place an order' },
    ],
    problem: {
      title: 'The phone was the bottleneck',
      body: 'At peak hours one person answered every call, wrote each order by hand and keyed it into the POS. Calls went unanswered, and hand-written tickets lost modifiers.',
      points: ['Missed calls during the dinner rush', 'Orders re-keyed by hand', 'No record of regulars’ usual orders'],
    },
    benefits: [
      { title: 'More orders', body: 'Customers order at any time, including when the phone line would have been busy: revenue up 35%.' },
      { title: 'Quieter phone', body: '60% fewer phone calls, so staff can serve the guests in the room.' },
      { title: 'Fast ordering', body: 'A repeat order takes under 30 seconds from first message to confirmation.' },
      { title: 'Accurate tickets', body: 'Every order is read back and sent straight to the POS, with modifiers intact.' },
    ],
    features: [
      'Ordering inside a messaging app customers already use',
      'Full menu with modifiers, sizes and add-ons',
      'Read-back confirmation before the ticket prints',
      'Remembers regulars’ usual orders',
      'Pickup time estimated from kitchen load',
      'Payment link sent in the chat',
      'Hand-off to a person for unusual requests',
      'Daily order summary for the owner',
    ],
    sampleResults: {
      title: 'Sample results (illustrative)',
      rows: [
        { label: 'Monthly revenue', before: '100%', after: '135%' },
        { label: 'Phone calls per day', before: '100%', after: '40%' },
        { label: 'Time to place an order', before: '3-4 min by phone', after: 'under 30 s' },
      ],
    },
    cta: { title: 'Want an order bot for your restaurant?', body: 'We will show you a working demo with your own menu in a free consultation.' },
    meta: caseStudyMeta['restaurant-order-bot'],
  },
  {
    kind: 'project',
    key: 'retail-customer-service',
    eyebrow: 'Project · Retail',
    headline: 'Retail Store Customer Service',
    lead: 'An AI customer-service assistant for an independent retail store: it answers stock, sizing and return questions on the website and by text, day and night.',
    heroStats: [
      { figure: '80%', label: 'of questions resolved' },
      { figure: '45%', label: 'sales increase' },
      { figure: '24/7', label: 'answers for shoppers' },
    ],
    problem: {
      title: 'The same questions, all day',
      body: 'Staff spent hours answering “is this in stock?”, “what are your hours?” and “can I return this?” by phone and email, while shoppers in the store waited.',
      points: ['Repeat questions by phone and email', 'No answers after closing time', 'Shoppers leaving when nobody was free'],
    },
    benefits: [
      { title: 'Questions resolved', body: '80% of customer questions are answered by the assistant without staff stepping in.' },
      { title: 'More sales', body: 'Shoppers who get an answer buy: sales rose 45%.' },
      { title: 'Always open', body: 'Evening and weekend browsers get answers when the store is closed.' },
      { title: 'Staff on the floor', body: 'The team helps customers in the store instead of repeating answers on the phone.' },
    ],
    features: [
      'Live stock and size lookups from the POS',
      'Store hours, parking and directions',
      'Return and exchange policy answers',
      'Holds placed for customers on their way',
      'Product recommendations from the catalogue',
      'Hand-off to staff with the conversation attached',
      'Works on the website and by text message',
      'Weekly report of the most-asked questions',
    ],
    sampleResults: {
      title: 'Sample results (illustrative)',
      rows: [
        { label: 'Questions answered without staff', before: '0%', after: '80%' },
        { label: 'Monthly sales', before: '100%', after: '145%' },
        { label: 'After-hours questions answered', before: 'none', after: 'all' },
      ],
    },
    cta: { title: 'Give your shoppers answers at any hour', body: 'See the assistant answer questions about your own catalogue in a free consultation.' },
    meta: caseStudyMeta['retail-customer-service'],
  },
  {
    kind: 'service-business',
    key: 'service-business-automation',
    headline: 'Service Business Automation',
    lead: 'Scheduling, reminders, invoicing and follow-ups on autopilot for salons, cleaners, contractors and clinics: 15 hours saved per week, 40% lower costs and 25% revenue growth.',
    problems: [
      'Hours every week spent booking and rescheduling by phone',
      'No-shows that leave paid staff idle',
      'Invoices sent days late, paid weeks late',
      'Past customers never hear from you again',
    ],
    benefits: [
      { figure: '15 hours', title: 'saved per week', body: 'Booking, reminders and invoicing run without anyone at the desk.' },
      { figure: '40%', title: 'cost reduction', body: 'Less admin time and fewer empty appointment slots.' },
      { figure: '25%', title: 'revenue growth', body: 'Rebooking reminders and reviews bring customers back.' },
      { figure: '24/7', title: 'online booking', body: 'Customers book the moment they think of it, not during office hours.' },
    ],
    story: {
      title: 'Success story: a three-chair salon',
      body: 'The owner spent her evenings returning calls and chasing unpaid invoices. With online booking, text reminders and automatic invoicing, the front desk runs itself and Sunday evenings are hers again.',
      quote: 'I used to spend every evening on the phone. Now the calendar fills itself and people show up.',
      attribution: 'Salon owner, Tri-Valley',
    },
    workflows: [
      { title: 'Book', body: 'Online booking synced with each staff calendar, with deposits for long appointments.' },
      { title: 'Remind', body: 'Confirmation at booking, a reminder the day before, and an easy reschedule link.' },
      { title: 'Bill & follow up', body: 'Invoice and payment link at checkout, then a review request and a rebooking nudge.' },
    ],
    operations: ['Online booking and calendar sync', 'Text and email reminders', 'Invoices and payment links', 'Customer records and notes'],
    analytics: ['Revenue by service and staff member', 'No-show and cancellation rates', 'Repeat-customer rate', 'Weekly hours saved report'],
    process: [
      { title: 'Assessment', body: 'Week 1: we map how bookings, reminders and invoices work today.' },
      { title: 'Setup', body: 'Week 2: booking, reminders and invoicing configured with your services and prices.' },
      { title: 'Training', body: 'Week 3: your team practises on real appointments with us beside them.' },
      { title: 'Launch', body: 'Week 4: customers book online, and we tune the messages from their replies.' },
    ],
    meta: caseStudyMeta['service-business-automation'],
  },
  {
    kind: 'restaurant-case',
    key: 'restaurant-automation',
    headline: 'Restaurant Automation Case Study',
    lead: 'How a local family restaurant went from 45 to 61 orders a day and from 80 to 32 phone calls with AI ordering.',
    overview:
      'A family-run restaurant with a loyal take-out following was turning callers away every evening. We introduced an AI ordering assistant on text and web chat, connected it to the POS, and kept a person one tap away for anything unusual.',
    challenge: {
      body: 'Two staff members shared the phone with their other work. At peak times the line was busy, orders were written by hand, and the kitchen remade dishes when modifiers were lost.',
      points: ['About 80 phone calls a day, most of them orders', 'Orders capped by how fast staff could answer', 'Errors between the handwritten ticket and the kitchen'],
    },
    steps: [
      { title: 'Listen', body: 'A week of call logging and a review of the menu, the POS and the kitchen ticket flow.' },
      { title: 'Build', body: 'An ordering assistant trained on the real menu, with read-back confirmation and POS integration.' },
      { title: 'Pilot', body: 'Take-out on weeknights first, with staff checking every ticket for two weeks.' },
      { title: 'Roll out', body: 'All service hours, with a weekly review of questions the assistant handed to staff.' },
    ],
    metrics: [
      { label: 'Orders per day', before: '45', after: '61' },
      { label: 'Phone calls per day', before: '80', after: '32' },
      { label: 'Order accuracy', after: '99.2%' },
      { label: 'Savings', after: '$18,000' },
      { label: 'Customer satisfaction', after: '4.8/5' },
    ],
    results: [
      'More orders each day without adding staff',
      'Phone calls cut by more than half, so the host can greet guests',
      'Almost every ticket reaches the kitchen exactly as ordered',
      'Regulars reorder their usual in a couple of messages',
    ],
    meta: caseStudyMeta['restaurant-automation'],
  },
];
