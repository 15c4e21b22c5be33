import type { PageMeta } from '@site/contracts/manifest';
import { cityMeta, danvilleGeo } from './city-meta';

/** Page ids the city pages send with every click (spec section 7). */
export type CityPageId = 'danville_local_page' | 'san_ramon_local_page' | 'walnut_creek_local_page' | 'pleasanton_local_page';
export type CityAction = 'ai_automation' | 'business_automation' | 'ai_solutions' | 'automation_services' | 'view_services' | 'case_study';

/** Where a city-page button goes: a home-page section (go to / and scroll) or another page. */
export type CityTarget = { section: 'contact' | 'services' } | { path: string };

export type CityButton = {
  label: string;
  /** Wording while the handler runs; absent means the button has no busy state (Walnut Creek's lower buttons). */
  busyLabel?: string;
  action: CityAction;
  target: CityTarget;
};

type TitledText = { title: string; body: string };

export type City = {
  slug: string;
  town: string;
  pageId: CityPageId;
  /** Card on /local-services. */
  indexCard: { badge: string; summary: string; industries: string };
  hero: { badge: string; headline: string; lead: string; primary: CityButton; secondary: CityButton };
  why: { title: string; items: [TitledText, TitledText, TitledText] };
  services: { title: string; intro: string; cards: [ServiceCard, ServiceCard] };
  story: {
    kind: 'success-story' | 'approach';
    eyebrow: string;
    title: string;
    body: string;
    highlights: [string, string, string];
    button: CityButton;
  };
  cta: { title: string; body: string; buttons: [CityButton, CityButton] };
  geo: { latitude: number; longitude: number };
  meta: PageMeta;
};
export type ServiceCard = { title: string; body: string; bullets: [string, string, string, string]; button: CityButton };

const contact = { section: 'contact' } as const;
const services = { section: 'services' } as const;
const LOADING = 'Loading...';


export const cities: City[] = [
  {
    slug: 'danville-ai-automation',
    town: 'Danville',
    pageId: 'danville_local_page',
    indexCard: {
      badge: 'DANVILLE20',
      industries: 'Restaurants and retail',
      summary:
        'Our home town. Order bots and reservation assistants for Hartz Avenue restaurants, and customer-service chat for the boutiques around it. Danville businesses take 20% off the first 3 months.',
    },
    hero: {
      badge: 'Danville, CA',
      headline: 'AI Automation for Danville Restaurants and Retail',
      lead: 'From the dinner rush on Hartz Avenue to weekend shoppers at Blackhawk Plaza, we set up AI ordering, reservations and customer service so your staff can look after the people in front of them. Plans from $300/month, and 20% off your first 3 months with the code DANVILLE20.',
      primary: { label: 'Get Launch Pricing', busyLabel: 'Getting Launch Pricing...', action: 'ai_automation', target: contact },
      secondary: { label: 'See Our Approach', busyLabel: LOADING, action: 'view_services', target: services },
    },
    why: {
      title: 'Why Danville Businesses Choose Us',
      items: [
        {
          title: 'Based in Danville',
          body: 'We work out of Town and Country Drive, so a first meeting happens at your counter, not on a video call, and we can be on site the same day when something needs a hand.',
        },
        {
          title: 'Built for small kitchens and shops',
          body: 'Most downtown Danville restaurants and stores run with a handful of people. We automate the calls, orders and repeat questions that pull those few people away from guests.',
        },
        {
          title: 'Local discount for neighbours',
          body: 'Danville owners get 20% off the first 3 months with DANVILLE20, on plans that start at $300/month. No long contract: you keep what works and drop what does not.',
        },
      ],
    },
    services: {
      title: 'Automation for Danville Restaurants and Shops',
      intro: 'Two packages shaped around the businesses that line downtown Danville.',
      cards: [
        {
          title: 'Restaurant Ordering & Reservations',
          body: 'Take-out orders, table bookings and catering requests answered around the clock, straight into your kitchen workflow.',
          bullets: [
            'Text and chat ordering that reads your real menu and modifiers',
            'Reservation requests confirmed and reminded automatically',
            'Order errors cut by up to 95% with read-back confirmations',
            'Catering and large-party inquiries routed to the owner',
          ],
          button: { label: 'Explore Solution', busyLabel: LOADING, action: 'ai_automation', target: contact },
        },
        {
          title: 'Retail Customer Service',
          body: 'An assistant that knows your stock, hours and policies, so boutique staff stop repeating the same answers by phone.',
          bullets: [
            'Answers about sizes, stock and store hours day and night',
            'Holds and special orders captured with the customer details',
            'Follow-up messages for new arrivals and local events',
            'Operational efficiency up by as much as 40%',
          ],
          button: { label: 'Learn More', busyLabel: LOADING, action: 'ai_automation', target: contact },
        },
      ],
    },
    story: {
      kind: 'approach',
      eyebrow: 'Our approach for Danville restaurants',
      title: 'How we would automate a busy Danville restaurant',
      body: 'We start by listening to a week of your phone orders and reservation calls, then design an ordering assistant around your menu, your POS and the way your kitchen already works. A two-week pilot on take-out comes before anything touches dine-in.',
      highlights: ['Order errors down by up to 95%', 'Phone time returned to the floor', 'Pilot before full rollout'],
      button: {
        label: 'See Our Approach',
        busyLabel: LOADING,
        action: 'case_study',
        target: { path: '/case-studies/danville-restaurant-automation' },
      },
    },
    cta: {
      title: 'Claim Danville launch pricing',
      body: 'Book a free 30-minute consultation and mention DANVILLE20 for 20% off your first 3 months.',
      buttons: [
        { label: 'Claim Launch Pricing', busyLabel: LOADING, action: 'ai_automation', target: contact },
        { label: 'Schedule Consultation', busyLabel: LOADING, action: 'ai_automation', target: contact },
      ],
    },
    geo: danvilleGeo,
    meta: cityMeta['danville-ai-automation'],
  },
  {
    slug: 'san-ramon-business-automation',
    town: 'San Ramon',
    pageId: 'san_ramon_local_page',
    indexCard: {
      badge: 'TECH HUB',
      industries: 'Tech companies, retail and service',
      summary:
        'Deployment pipelines, support triage and onboarding for the software teams of Bishop Ranch, plus booking and follow-up automation for the shops and service firms that serve them.',
    },
    hero: {
      badge: 'San Ramon, CA',
      headline: 'Business Automation for San Ramon Tech and Service Companies',
      lead: 'San Ramon runs on teams that ship software and on the retailers and service firms that keep City Center busy. We connect the tools you already pay for, so releases, tickets, bookings and invoices move without anyone copying data between tabs.',
      primary: { label: 'Get Launch Pricing', busyLabel: 'Getting Launch Pricing...', action: 'business_automation', target: contact },
      secondary: { label: 'See Our Approach', busyLabel: LOADING, action: 'view_services', target: services },
    },
    why: {
      title: 'Why San Ramon Teams Work With Us',
      items: [
        {
          title: 'We speak both engineering and operations',
          body: 'We read your CI logs and your support queue with the same care, and we write automation your engineers can review, version and own after we leave.',
        },
        {
          title: 'Integrations, not another dashboard',
          body: 'GitHub, Jira, Slack, HubSpot, QuickBooks: we wire the systems together instead of adding a tool your team has to learn and check every morning.',
        },
        {
          title: 'Close to Bishop Ranch',
          body: 'A short drive from the office parks on Bollinger Canyon Road, we can sit in on a sprint review or a front-desk shift to see where the hours really go.',
        },
      ],
    },
    services: {
      title: 'Automation for San Ramon Companies',
      intro: 'One package for product teams, one for the retail and service businesses around them.',
      cards: [
        {
          title: 'Tech Company Workflow Automation',
          body: 'Release checklists, environment set-up and ticket routing handled by automation your engineers can audit.',
          bullets: [
            'Deployment time cut by up to 80% with scripted release steps',
            'Support tickets triaged and labelled before the stand-up',
            'New-hire accounts and access set up from one request',
            'Development efficiency up by as much as 60%',
          ],
          button: { label: 'Explore Solution', busyLabel: LOADING, action: 'business_automation', target: contact },
        },
        {
          title: 'Retail & Service Business Automation',
          body: 'Appointment booking, reminders and invoicing for the salons, clinics, shops and contractors of San Ramon.',
          bullets: [
            'Online booking synced with your staff calendars',
            'Text reminders that cut no-shows and last-minute gaps',
            'Invoices and payment links sent when the job is marked done',
            'Review requests timed after each completed visit',
          ],
          button: { label: 'Learn More', busyLabel: LOADING, action: 'business_automation', target: contact },
        },
      ],
    },
    story: {
      kind: 'success-story',
      eyebrow: 'Solution case study: San Ramon tech',
      title: 'A release day that runs itself',
      body: 'For a mid-sized San Ramon software team we designed a pipeline that turns a merged pull request into a tested, tagged and announced release, with support tickets routed to the engineer who owns the change. The full case study walks through the design, the phases and what we expect it to save.',
      highlights: ['Deployment time down by up to 80%', 'Development efficiency up to 60%', 'Tickets routed to the right owner'],
      button: {
        label: 'Read Full Case Study',
        busyLabel: LOADING,
        action: 'case_study',
        target: { path: '/case-studies/san-ramon-tech-automation' },
      },
    },
    cta: {
      title: 'Give your San Ramon team its hours back',
      body: 'Tell us which handoff slows you down most; we will map it in a free 30-minute call. Plans start at $300/month.',
      buttons: [
        { label: 'Claim Launch Pricing', busyLabel: LOADING, action: 'business_automation', target: contact },
        { label: 'Schedule Consultation', busyLabel: LOADING, action: 'business_automation', target: contact },
      ],
    },
    geo: { latitude: 37.78, longitude: -121.98 },
    meta: cityMeta['san-ramon-business-automation'],
  },
  {
    slug: 'walnut-creek-ai-solutions',
    town: 'Walnut Creek',
    pageId: 'walnut_creek_local_page',
    indexCard: {
      badge: 'DOWNTOWN',
      industries: 'Retail and restaurants',
      summary:
        'Inventory sync, faster checkout and shopper chat for downtown boutiques near Broadway Plaza, and order-taking assistants for the restaurants on Locust and Main.',
    },
    hero: {
      badge: 'Walnut Creek, CA',
      headline: 'AI Solutions for Walnut Creek Retail and Restaurants',
      lead: 'Downtown Walnut Creek shoppers compare prices on their phones while they stand in your aisle. We give boutiques and restaurants AI that answers them first: live stock lookups, quicker checkout and ordering that keeps pace with a full Saturday.',
      primary: { label: 'Claim Launch Pricing', busyLabel: 'Getting Launch Pricing...', action: 'ai_solutions', target: contact },
      secondary: { label: 'Schedule Consultation', busyLabel: LOADING, action: 'ai_solutions', target: contact },
    },
    why: {
      title: 'Why Downtown Walnut Creek Picks Us',
      items: [
        {
          title: 'Made for high foot traffic',
          body: 'Broadway Plaza weekends and holiday season bring crowds that small teams cannot answer one by one. Our assistants handle the repeat questions so the line keeps moving.',
        },
        {
          title: 'Stock you can trust',
          body: 'We sync your point of sale with your online listings, so a shopper who asks about a size or a bottle gets the answer that matches your shelf.',
        },
        {
          title: 'One partner for the whole block',
          body: 'Many downtown owners run a shop and a café, or share staff with a neighbour. We set up one system that serves both counters without doubling the bill.',
        },
      ],
    },
    services: {
      title: 'AI for Walnut Creek Stores and Restaurants',
      intro: 'Two packages for the retail and dining core of downtown.',
      cards: [
        {
          title: 'Retail Inventory & Checkout',
          body: 'Inventory that updates itself and a checkout that does not send shoppers to the store next door.',
          bullets: [
            'Inventory accuracy up to 95% with automatic POS sync',
            'Checkout time cut by up to 70% with mobile pay and pre-orders',
            'Low-stock alerts before a best-seller runs out',
            'Shopper chat that checks sizes and holds items',
          ],
          button: { label: 'Explore Solution', busyLabel: LOADING, action: 'ai_solutions', target: contact },
        },
        {
          title: 'Restaurant Ordering Assistant',
          body: 'Pickup and delivery orders taken by chat and text during the pre-theatre rush, entered correctly the first time.',
          bullets: [
            'Orders taken by text and web chat in under a minute',
            'Wait-list and table-ready messages for walk-ins',
            'Allergy and modifier questions answered from your menu',
            'Daily sales summaries sent to the owner at close',
          ],
          button: { label: 'Learn More', busyLabel: LOADING, action: 'ai_solutions', target: contact },
        },
      ],
    },
    story: {
      kind: 'success-story',
      eyebrow: 'Solution case study: Walnut Creek retail',
      title: 'A boutique that never says "let me check the back"',
      body: 'We designed an inventory and checkout system for a downtown Walnut Creek retailer: POS and online stock kept in step, shoppers answered by chat, and payment taken at the rack on busy days. The full case study covers the challenges, the design and the phased rollout.',
      highlights: ['Inventory accuracy up to 95%', 'Checkout time down by up to 70%', 'Ready before the holiday season'],
      button: { label: 'Read Full Case Study', action: 'case_study', target: { path: '/case-studies/walnut-creek-retail-automation' } },
    },
    cta: {
      title: 'See what AI can do on your block',
      body: 'We will walk your store or dining room, then send a free written assessment of what to automate first.',
      buttons: [
        { label: 'Get Free AI Assessment', action: 'ai_solutions', target: contact },
        { label: 'Schedule Demo', action: 'ai_solutions', target: contact },
      ],
    },
    geo: { latitude: 37.91, longitude: -122.07 },
    meta: cityMeta['walnut-creek-ai-solutions'],
  },
  {
    slug: 'pleasanton-automation-services',
    town: 'Pleasanton',
    pageId: 'pleasanton_local_page',
    indexCard: {
      badge: 'INDUSTRY',
      industries: 'Manufacturing and service businesses',
      summary:
        'Production tracking and quality alerts for the manufacturers of Hacienda and Stoneridge, and dispatch, scheduling and invoicing for Pleasanton service businesses.',
    },
    hero: {
      badge: 'Pleasanton, CA',
      headline: 'Automation Services for Pleasanton Manufacturers and Service Businesses',
      lead: 'Pleasanton makes things: medical devices, food products, precision parts. We automate the paperwork around the line, from shift counts to defect reports to supplier orders, and we do the same for the contractors and service firms that keep the valley running.',
      primary: { label: 'Get Launch Pricing', busyLabel: 'Getting Launch Pricing...', action: 'automation_services', target: contact },
      secondary: { label: 'See Our Approach', busyLabel: LOADING, action: 'view_services', target: services },
    },
    why: {
      title: 'Why Pleasanton Operations Choose Us',
      items: [
        {
          title: 'We start on the shop floor',
          body: 'Before we propose software we walk the line with your supervisors, time the manual steps and find where counts, checks and handoffs are still done on paper.',
        },
        {
          title: 'Works with the machines you have',
          body: 'No rip-and-replace: we read from the scanners, scales and spreadsheets already in place and push clean data into your ERP or accounting system.',
        },
        {
          title: 'Field-service know-how',
          body: 'Plumbers, HVAC crews and cleaning companies across the Tri-Valley use our dispatch and invoicing flows, so a finished job gets billed the same afternoon.',
        },
      ],
    },
    services: {
      title: 'Automation for Pleasanton Industry and Services',
      intro: 'One package for production floors, one for businesses that work in the field.',
      cards: [
        {
          title: 'Manufacturing Operations',
          body: 'Real-time production counts and quality checks that reach a supervisor before a bad batch ships.',
          bullets: [
            'Production efficiency up by as much as 50%',
            'Defect rates reduced by up to 90% with early alerts',
            'Shift reports compiled automatically from line data',
            'Supplier reorders raised when stock hits a set level',
          ],
          button: { label: 'Explore Solution', busyLabel: LOADING, action: 'automation_services', target: contact },
        },
        {
          title: 'Service Business Scheduling',
          body: 'Dispatch, reminders and invoicing for crews that spend the day at customer sites.',
          bullets: [
            'Jobs assigned by location, skill and availability',
            'Arrival-window texts sent to customers automatically',
            'Photos and notes from the site attached to the job',
            'Invoice and payment link sent when the job closes',
          ],
          button: { label: 'Learn More', busyLabel: LOADING, action: 'automation_services', target: contact },
        },
      ],
    },
    story: {
      kind: 'approach',
      eyebrow: 'Our approach for Pleasanton manufacturers',
      title: 'From clipboards to a live production board',
      body: 'Our design for a Pleasanton manufacturer replaces end-of-shift tally sheets with counts captured at each station, flags quality drift while the batch is still running, and drafts supplier orders from actual consumption. It rolls out one line at a time so production never stops.',
      highlights: ['Production efficiency up to 50%', 'Defect rates down by up to 90%', 'One line at a time'],
      button: {
        label: 'See Our Approach',
        busyLabel: LOADING,
        action: 'case_study',
        target: { path: '/case-studies/pleasanton-manufacturing-automation' },
      },
    },
    cta: {
      title: 'Find the hours hiding in your operation',
      body: 'A free 30-minute consultation, then a plain-language plan. Plans start at $300/month with launch pricing for founding customers.',
      buttons: [
        { label: 'Claim Launch Pricing', busyLabel: LOADING, action: 'automation_services', target: contact },
        { label: 'Schedule Consultation', busyLabel: LOADING, action: 'automation_services', target: contact },
      ],
    },
    geo: { latitude: 37.66, longitude: -121.87 },
    meta: cityMeta['pleasanton-automation-services'],
  },
];

export { localServicesMeta } from './city-meta';
