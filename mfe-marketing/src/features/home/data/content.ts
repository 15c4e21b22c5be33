/** The home page's copy and figures, as typed data (claims from spec section 1). */

export type Service = {
  id: 'chatbots' | 'workflow' | 'integration' | 'ai-tools';
  title: string;
  summary: string;
  points: string[];
  price: string;
};

export const services: Service[] = [
  {
    id: 'chatbots',
    title: 'AI Chatbots',
    summary: 'A 24/7 assistant on your website, SMS and messaging apps that answers questions, takes orders and books appointments in your voice.',
    points: ['Trained on your menu, catalog or price list', 'Hands off to a person when it should', 'English and Spanish out of the box'],
    price: 'From $300/month',
  },
  {
    id: 'workflow',
    title: 'Workflow Automation',
    summary: 'Invoices, reminders, follow-ups and data entry that run themselves, so your team stops copying between screens.',
    points: ['Automatic invoices and payment reminders', 'No-show and review-request follow-ups', 'Weekly reports in your inbox'],
    price: 'From $300/month',
  },
  {
    id: 'integration',
    title: 'System Integration',
    summary: 'We connect the tools you already pay for (POS, booking, CRM, accounting) so an order or a booking is entered once.',
    points: ['Square, Toast, Shopify, QuickBooks', 'Google Workspace and Microsoft 365', 'Clean data across every system'],
    price: 'From $300/month',
  },
  {
    id: 'ai-tools',
    title: 'Business AI Tools',
    summary: 'Practical AI for owners: demand forecasts, review summaries, and drafts of quotes and emails you approve in one click.',
    points: ['Staffing and inventory forecasts', 'Customer review insights', 'Private: your data stays yours'],
    price: 'From $300/month',
  },
];

export type IndustryInsight = {
  industry: string;
  town: string;
  title: string;
  summary: string;
  stats: { value: string; label: string }[];
  href: string;
};

export const industryInsights: IndustryInsight[] = [
  {
    industry: 'Restaurants',
    town: 'Danville',
    title: 'Phone orders without the phone tag',
    summary: 'An ordering assistant takes orders by text and chat, confirms them back and sends them straight to the kitchen printer.',
    stats: [
      { value: 'Up to 95%', label: 'fewer order errors' },
      { value: 'Up to 40%', label: 'more operational efficiency' },
    ],
    href: '/case-studies/danville-restaurant-automation',
  },
  {
    industry: 'Retail',
    town: 'Walnut Creek',
    title: 'Faster checkout, shelves that match the system',
    summary: 'Inventory synced between store and web shop, and an assistant that answers "do you have it in my size?" before anyone calls.',
    stats: [
      { value: 'Up to 70%', label: 'faster checkout' },
      { value: 'Up to 95%', label: 'inventory accuracy' },
    ],
    href: '/case-studies/walnut-creek-retail-automation',
  },
  {
    industry: 'Manufacturing',
    town: 'Pleasanton',
    title: 'Catch defects before they ship',
    summary: 'Production data collected automatically, with alerts when a line drifts out of spec and reports that write themselves.',
    stats: [
      { value: 'Up to 50%', label: 'more production efficiency' },
      { value: 'Up to 90%', label: 'lower defect rates' },
    ],
    href: '/case-studies/pleasanton-manufacturing-automation',
  },
];

/** A project card (spec section 3, content card). */
export type ContentCard = {
  title: string;
  description: string;
  technologies: string[];
  featured: boolean;
  slug: string;
};

export const projects: ContentCard[] = [
  {
    title: 'Local Restaurant Order Bot',
    description:
      'A messaging-app ordering bot for a family restaurant: customers order in under 30 seconds, the kitchen gets a clean ticket, and the phone rings 60% less. Revenue up 35%.',
    technologies: ['WhatsApp Business API', 'GPT-4o', 'Square POS', 'Node.js'],
    featured: true,
    slug: 'restaurant-order-bot',
  },
  {
    title: 'Retail Store Customer Service',
    description:
      'A website and SMS assistant for a boutique that resolves 80% of customer questions (stock, sizes, hours, returns) on its own, with sales up 45%.',
    technologies: ['Shopify', 'Twilio SMS', 'OpenAI', 'Inventory sync'],
    featured: false,
    slug: 'retail-customer-service',
  },
  {
    title: 'Service Business Automation',
    description:
      'Booking, reminders, invoicing and follow-ups wired together for a home-services company: 15 hours saved every week and 40% lower admin costs.',
    technologies: ['n8n', 'Google Calendar', 'QuickBooks Online', 'Twilio'],
    featured: false,
    slug: 'service-business-automation',
  },
];

/** An illustrative outcome story: the kind of business, in its own words, and the headline figure. */
export type Testimonial = { quote: string; business: string; result: string };

export const testimonials: Testimonial[] = [
  {
    quote:
      'Orders used to pile up on the phone during the dinner rush. Now the bot takes them and the kitchen just cooks. We saw a 300% efficiency gain in 3 months.',
    business: 'Family restaurant, Danville',
    result: '300% efficiency gain in 3 months',
  },
  {
    quote: 'Customers get answers at 10 PM about sizes and stock, and they buy. Our sales are up 40% since launch.',
    business: 'Boutique, Walnut Creek',
    result: 'Sales up 40%',
  },
  {
    quote: 'Invoices, reminders and onboarding emails used to take two people half a week. Our costs are down 35%.',
    business: 'IT services firm, San Ramon',
    result: 'Costs down 35%',
  },
  {
    quote: 'Line data now flows into one dashboard with alerts. Production efficiency is up 50% and we catch problems the same shift.',
    business: 'Precision parts manufacturer, Pleasanton',
    result: 'Production efficiency up 50%',
  },
];

/** The local-discount prefill (spec section 2, home page). */
export const DISCOUNT_DRAFT = {
  subject: 'Claim local discount DANVILLE20',
  message:
    "Hi! I'd like to claim the DANVILLE20 local discount (20% off my first 3 months). Please get in touch to set up my free consultation.",
};
