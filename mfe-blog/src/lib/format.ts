// A post's date, views and read time as the article shows them: one definition (@site/ui/post-format, written out
// without Intl so a page's first formatter does not load locale data while it comes to life).
export { formatPostDate as formatDate, formatPostViews as formatViews, formatReadTime } from '@site/ui/post-format';
