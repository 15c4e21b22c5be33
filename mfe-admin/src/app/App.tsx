import { Route, Routes } from 'react-router-dom';
import { NotFound, RemoteRoot } from '@site/ui';
import { AdminGate } from '../features/auth/components/admin-gate';
import '../index.css';

/** The exposed ./App of mfe-admin. */
export default function App() {
  return (
    <RemoteRoot name="admin" version={__MFE_VERSION__}>
      <Routes>
        <Route path="/admin/*" element={<AdminGate />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </RemoteRoot>
  );
}
