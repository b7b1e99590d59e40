/**
 * The part of react-router-dom the shell and the remotes use. mf-shared.ts provides this module, not the
 * whole package, as the `react-router-dom` shared singleton: a shared module is never tree-shaken, and the
 * data routers, server rendering and hydration code we never call are most of react-router's weight.
 * Imported from react-router (what react-router-dom re-exports), since an import of `react-router-dom`
 * here would be the shared module asking for itself. react-router-dom.spec.ts fails when an app imports
 * a name this list lacks.
 */
export {
  BrowserRouter,
  Link,
  NavLink,
  Outlet,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
