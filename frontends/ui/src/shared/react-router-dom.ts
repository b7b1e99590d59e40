/**
 * The part of react-router-dom the apps use, shared in its place (docs/frontend.md): react-router-dom.spec.ts
 * fails when an app imports a name this list lacks.
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
