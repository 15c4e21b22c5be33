/**
 * What migration 0002 inserts, frozen: the three categories and three posts exactly as the migration wrote them
 * before it was frozen, with what it used to compute at run time already applied (slugify for the slugs, the
 * post sanitizer for the HTML, readTime, the keywords as stored JSON text). A migration that has run must write
 * the same rows on every database forever, so this file imports nothing and is never edited: to change the seeded
 * blog, write a new migration.
 */

export const FROZEN_BLOG_CATEGORIES: readonly { name: string; slug: string; description: string }[] = [
  { name: 'AI Automation', slug: 'ai-automation', description: 'Chatbots, assistants and AI workflows that take repetitive work off a small team.' },
  { name: 'Case Studies', slug: 'case-studies', description: 'How East Bay businesses put automation to work, with the numbers before and after.' },
  { name: 'Industry Insights', slug: 'industry-insights', description: 'Trends and practical advice for restaurants, retailers and service businesses.' },
];

/** blog_posts rows without their generated id (`status` published, `source` local, no images, as stored). */
export interface FrozenBlogPost {
  slug: string;
  title: string;
  excerpt: string;
  content: string;
  keywords: string;
  author: string;
  category: string;
  category_slug: string;
  read_time: number;
  views: number;
  meta_description: string;
  published_at: string;
}

export const FROZEN_BLOG_POSTS: readonly FrozenBlogPost[] = [
  {
    slug: 'how-ai-chatbots-are-transforming-customer-service-for-local-businesses',
    title: 'How AI Chatbots Are Transforming Customer Service for Local Businesses',
    excerpt: 'AI chatbots now answer questions, take bookings and route requests around the clock. Here is what they can do for a small East Bay business, what they cost and how to start without losing the personal touch.',
    keywords: '["AI chatbots","customer service","small business","automation","East Bay"]',
    author: 'Tri-Valley AI Team',
    category: 'AI Automation',
    category_slug: 'ai-automation',
    read_time: 3,
    views: 1250,
    meta_description: 'Learn how AI chatbots help Danville, San Ramon, Walnut Creek and Pleasanton businesses answer customers 24/7, cut support costs and capture more leads.',
    published_at: '2024-01-15T09:00:00.000Z',
    content: `<p>Every local business knows the feeling: the phone rings while you are with a customer, an email asks the same question you answered ten times this week, and a potential client fills in your contact form at 10 p.m. and hears nothing until the next morning. AI chatbots exist to close exactly these gaps. They are no longer the clumsy scripted bots of a few years ago. Modern assistants understand plain language, know your menu, price list or service area, and hand over to a person when a conversation needs one.</p>
<h2>What a customer-service chatbot actually does</h2>
<p>A well-built assistant sits on your website, your Google Business Profile messages or a messaging app, and handles the questions that make up most of your inbound traffic:</p>
<ul>
<li><strong>Opening hours, directions and parking</strong>, answered instantly and consistently.</li>
<li><strong>Bookings and appointments</strong>, written straight into the calendar you already use.</li>
<li><strong>Order status and simple changes</strong>, looked up in your point-of-sale or order system.</li>
<li><strong>Lead capture</strong>: name, need and the best time to call back, sent to your inbox or CRM.</li>
<li><strong>Hand-over</strong> to a staff member, with the full conversation attached, when a question is unusual or sensitive.</li>
</ul>
<h2>Why it matters for a small team</h2>
<p>For a business with five to twenty employees, every interruption is expensive. When we measure the inbound questions of a typical local service business, between sixty and eighty percent of them are repeats. Automating those answers does not replace your staff; it gives them back the hours they spend on the phone so they can focus on the customers in front of them.</p>
<blockquote>Owners we work with usually see the first benefit in the evening: enquiries that used to wait until morning are answered and booked before the customer has a chance to call a competitor.</blockquote>
<h3>The numbers we plan for</h3>
<ol>
<li>Routine questions answered without staff involvement: typically 60 to 80 percent.</li>
<li>Response time for after-hours enquiries: from the next business day to under a minute.</li>
<li>Support cost: commonly reduced by around 40 percent once the assistant is tuned.</li>
</ol>
<h2>How to start without losing the personal touch</h2>
<p>Start narrow. Pick the ten questions your team answers most often and write down the answers you are proud of. The assistant is trained on those answers, your website and your policies, and it is told clearly what it must not do: quote custom prices, promise refunds or give medical or legal advice. Every conversation it cannot finish goes to a person.</p>
<p>Then measure. Review transcripts weekly for the first month, add missing answers, and adjust the tone so it sounds like your business. Most of our clients reach a stable, trusted assistant within four to six weeks.</p>
<h2>What it costs</h2>
<p>A focused customer-service assistant for a local business starts at <strong>$300 per month</strong>, including hosting, monitoring and monthly improvements. Local businesses in Danville, San Ramon, Walnut Creek and Pleasanton can use the code <strong>DANVILLE20</strong> for 20% off the first three months.</p>
<p>If you are curious what an assistant would handle in your business, book a free 30-minute consultation. We will look at your most common questions together and tell you honestly whether a chatbot is worth it for you.</p>`,
  },
  {
    slug: 'restaurant-automation-how-a-danville-restaurant-streamlined-ordering',
    title: 'Restaurant Automation: How a Danville Restaurant Streamlined Ordering',
    excerpt: 'A family restaurant in Danville was losing orders to a busy phone line. An ordering assistant on a messaging app took over the routine calls, cut order errors and freed the team for the dining room.',
    keywords: '["restaurant automation","online ordering","Danville","case study","order bot"]',
    author: 'Tri-Valley AI Team',
    category: 'Case Studies',
    category_slug: 'case-studies',
    read_time: 3,
    views: 890,
    meta_description: 'A Danville restaurant case study: an AI ordering assistant cut phone calls from 80 to 32 a day, raised daily orders from 45 to 61 and reduced order errors.',
    published_at: '2024-01-10T09:00:00.000Z',
    content: `<p>Friday evening at a busy family restaurant in downtown Danville: two phone lines ringing, a host seating guests and a kitchen waiting on tickets. Before the project the owners estimated they missed one call in five during the dinner rush, and every missed call was a lost order. Orders taken in a hurry also came with mistakes: the wrong side, a missed allergy note, a pickup time nobody could meet.</p>
<h2>The challenge</h2>
<p>The restaurant took around 45 orders a day, most of them by phone. Staff spent roughly 80 calls a day answering the same questions about the menu, opening hours and wait times. The owners did not want a faceless ordering portal; their regulars like talking to them. They wanted the routine calls handled well and the personal conversations kept.</p>
<h2>What we built</h2>
<p>We designed an ordering assistant that lives where the restaurant's customers already are: a messaging app and the restaurant's website.</p>
<ul>
<li>The full menu, with prices, modifiers and allergens, is kept in one place the owners edit themselves.</li>
<li>Customers order in plain language ("two margheritas, one without basil, pickup at 7") and get a clear summary to confirm.</li>
<li>Confirmed orders go straight to the kitchen printer and the point-of-sale system, with allergy notes highlighted.</li>
<li>Pickup times are offered only when the kitchen can actually meet them.</li>
<li>Anything unusual, such as catering or a complaint, is passed to a person with the conversation attached.</li>
</ul>
<h3>Implementation steps</h3>
<ol>
<li><strong>Week 1</strong>: menu and process mapping with the owners and the kitchen lead.</li>
<li><strong>Week 2</strong>: assistant set-up, kitchen printer and point-of-sale integration.</li>
<li><strong>Week 3</strong>: soft launch with regulars, daily transcript reviews.</li>
<li><strong>Week 4</strong>: full launch, announced on the menu, receipts and social media.</li>
</ol>
<h2>The results after three months</h2>
<table>
<thead><tr><th>Measure</th><th>Before</th><th>After</th></tr></thead>
<tbody>
<tr><td>Orders per day</td><td>45</td><td>61</td></tr>
<tr><td>Phone calls per day</td><td>80</td><td>32</td></tr>
<tr><td>Order accuracy</td><td>Not measured</td><td>99.2%</td></tr>
<tr><td>Customer satisfaction</td><td>–</td><td>4.8 / 5</td></tr>
</tbody>
</table>
<p>The owners estimate savings of about <strong>$18,000 a year</strong> in staff time and remade orders. More importantly, the host is back at the door during the rush instead of on the phone.</p>
<blockquote>Order errors dropped by up to 95 percent because every order is confirmed in writing before it reaches the kitchen.</blockquote>
<h2>What other restaurants can learn</h2>
<p>Start with the calls that are pure routine, keep a human path for everything else, and let the kitchen see orders in the format it already uses. A restaurant does not need a large budget to do this well; it needs a clear menu, a few weeks of tuning and an owner who reads the first transcripts.</p>
<p>Running a restaurant in the Tri-Valley? Book a free consultation and we will walk through your own order flow together.</p>`,
  },
  {
    slug: 'retail-automation-smarter-inventory-and-faster-checkout-for-local-stores',
    title: 'Retail Automation: Smarter Inventory and Faster Checkout for Local Stores',
    excerpt: 'Independent retailers compete with national chains on service, not scale. Automating inventory counts, reorders and customer questions gives a small store the accuracy of a big one while keeping the personal service customers come for.',
    keywords: '["retail automation","inventory management","checkout","customer questions","independent retail"]',
    author: 'Tri-Valley AI Team',
    category: 'Industry Insights',
    category_slug: 'industry-insights',
    read_time: 3,
    views: 1100,
    meta_description: 'How independent retailers in the East Bay use automation for inventory accuracy, faster checkout and 24/7 answers to customer questions, with practical first steps.',
    published_at: '2024-01-05T09:00:00.000Z',
    content: `<p>Independent stores in Walnut Creek, Pleasanton and the rest of the East Bay win on knowledge and service. They lose when a customer drives over for an item the website says is in stock and it is not, or waits in a long line on a Saturday afternoon. Automation fixes these problems without turning a neighbourhood shop into a faceless chain.</p>
<h2>Inventory you can trust</h2>
<p>Most small retailers still count stock by hand and reorder from memory. The result is predictable: best sellers run out, slow items pile up in the back room, and the online catalogue drifts away from the shelf.</p>
<ul>
<li><strong>Connected stock levels</strong>: the point-of-sale, the web shop and the supplier orders share one count.</li>
<li><strong>Automatic reorder suggestions</strong> based on sales speed, season and supplier lead time.</li>
<li><strong>Exception alerts</strong> when a count looks wrong, so a person checks the shelf before a customer does.</li>
</ul>
<p>Stores that connect these pieces typically reach inventory accuracy of up to 95 percent within a quarter.</p>
<h2>Faster checkout</h2>
<p>Checkout time is where small stores lose weekend sales. Simple changes make a real difference:</p>
<ol>
<li>Mobile checkout on a tablet so staff can take payment anywhere in the store.</li>
<li>Saved customer profiles for returns and loyalty, without asking for details every time.</li>
<li>Automatic receipts and follow-up emails instead of manual data entry after closing.</li>
</ol>
<p>Together these can cut checkout time by up to 70 percent on busy days.</p>
<h2>Answers around the clock</h2>
<p>A large share of calls to a retail store are variations of three questions: Do you have it? Are you open? Can you hold it for me? A customer-service assistant connected to live stock levels answers all three at any hour and can place a hold that staff confirm in the morning. One of our retail clients saw sales rise by 40 percent in the first season after combining live stock answers with evening hold requests.</p>
<h3>Where to begin</h3>
<p>Pick one pain point, not five. For most stores the best first project is connecting the point-of-sale to the online catalogue, because accurate stock levels are the foundation for everything else. After that, add reorder suggestions, then the customer-facing assistant.</p>
<blockquote>The goal is not fewer people in the store. It is people spending their time with customers instead of with spreadsheets.</blockquote>
<p>Curious what this would look like for your store? Try our ROI calculator or book a free 30-minute consultation to talk it through.</p>`,
  },
];
