/**
 * The professional network as a live data source: the interface, the HTTP adapter
 * (NETWORK_SOURCE_URL) and the simulated default over the stored catalog.
 */
export { HttpNetworkSource, type HttpNetworkSourceOptions } from './http-source.js';
export { SimulatedNetworkSource, type SimulatedNetworkOptions } from './simulated-source.js';
export {
  NetworkSourceError,
  type CompanyRef,
  type LiveCompany,
  type LiveProfile,
  type NetworkFailureKind,
  type NetworkSource,
  type ProfileRef,
} from '../../core/ports/network-source.js';
