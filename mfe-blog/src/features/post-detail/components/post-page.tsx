import { useParams } from 'react-router-dom';
import { PageHeader } from '@site/ui';

export function PostPage() {
  const { slug = '' } = useParams();
  return <PageHeader title={slug} />;
}
