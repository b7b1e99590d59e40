import { useLocation, useNavigate } from 'react-router-dom';

/** Back to the previous screen, or home when this screen was opened directly (no history to go to). */
export function useGoBack(): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return () => (location.key === 'default' ? navigate('/') : navigate(-1));
}
