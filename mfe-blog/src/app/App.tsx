import { Route, Routes } from 'react-router-dom';
import { NotFound, RemoteRoot } from '@site/ui';
import { CategoryPage } from '../features/category/components/category-page';
import { PostPage } from '../features/post-detail/components/post-page';
import { BlogPage } from '../features/posts/components/blog-page';
import '../index.css';

/** The exposed ./App of mfe-blog. */
export default function App() {
  return (
    <RemoteRoot name="blog" version={__MFE_VERSION__}>
      <Routes>
        <Route path="/blog" element={<BlogPage />} />
        <Route path="/blog/category/:category" element={<CategoryPage />} />
        <Route path="/blog/:slug" element={<PostPage />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </RemoteRoot>
  );
}
