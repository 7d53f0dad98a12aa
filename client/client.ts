import {
  type AppsApi,
  appsApi,
  type DeploymentKeysApi,
  type DeviceOverridesApi,
  type DevicesApi,
  deploymentKeysApi,
  deviceOverridesApi,
  devicesApi,
  type ExpoApi,
  expoApi,
  type ModulesApi,
  modulesApi,
} from './app-api.js';
import { type Credentials, Transport, type TransportOptions } from './transport.js';
import {
  type ApiKeysApi,
  type AuditApi,
  type AuthApi,
  apiKeysApi,
  auditApi,
  authApi,
  type InvitationsApi,
  invitationsApi,
  type MembersApi,
  membersApi,
  type WebhooksApi,
  type WorkspacesApi,
  webhooksApi,
  workspacesApi,
} from './workspace-api.js';

export type ClientOptions = TransportOptions;

/**
 * The typed control-API client: one method per endpoint of the specification and API.md, grouped by
 * resource (workspace-api.ts, app-api.ts). Uses only fetch, so it runs in Node, browsers and React Native.
 *
 *   const ota = new OtaClient({ baseUrl: 'http://127.0.0.1:8080', credentials: { apiKey } });
 *   const { apps } = await ota.apps.list();
 */
export class OtaClient {
  readonly http: Transport;
  readonly auth: AuthApi;
  readonly workspaces: WorkspacesApi;
  readonly apiKeys: ApiKeysApi;
  readonly members: MembersApi;
  readonly invitations: InvitationsApi;
  readonly apps: AppsApi;
  readonly deviceOverrides: DeviceOverridesApi;
  readonly deploymentKeys: DeploymentKeysApi;
  readonly modules: ModulesApi;
  readonly expo: ExpoApi;
  readonly devices: DevicesApi;
  readonly audit: AuditApi;
  readonly webhooks: WebhooksApi;

  constructor(options: ClientOptions) {
    this.http = new Transport(options);
    this.auth = authApi(this.http, (credentials) => this.setCredentials(credentials));
    this.workspaces = workspacesApi(this.http);
    this.apiKeys = apiKeysApi(this.http);
    this.members = membersApi(this.http);
    this.invitations = invitationsApi(this.http);
    this.apps = appsApi(this.http);
    this.deviceOverrides = deviceOverridesApi(this.http);
    this.deploymentKeys = deploymentKeysApi(this.http);
    this.modules = modulesApi(this.http);
    this.expo = expoApi(this.http);
    this.devices = devicesApi(this.http);
    this.audit = auditApi(this.http);
    this.webhooks = webhooksApi(this.http);
  }

  setCredentials(credentials: Credentials | undefined): void {
    this.http.setCredentials(credentials);
  }
}
