import { PostEditor } from './post-editor';

/** /admin/posts/create */
export function CreatePostPage() {
  return <PostEditor post={null} />;
}
