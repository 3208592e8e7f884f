import type { Server } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { ClientAuthType } from './web-config.js';

/**
 * Enforces the client_auth_type modes that Node's handshake options cannot express: the
 * handshake requests a certificate without rejecting, and a connection breaking the policy is
 * closed before it can send a request. RequireAndVerifyClientCert is enforced by the handshake.
 */
export function enforceClientCertPolicy(server: Server, policy: ClientAuthType): void {
  const violates = violation(policy);
  if (!violates) return;
  server.on('secureConnection', (socket: TLSSocket) => {
    if (violates(socket)) socket.destroy();
  });
}

function violation(policy: ClientAuthType): ((socket: TLSSocket) => boolean) | undefined {
  const presented = (socket: TLSSocket) => Object.keys(socket.getPeerCertificate()).length > 0;
  switch (policy) {
    case 'RequireAnyClientCert':
      return (socket) => !presented(socket);
    case 'VerifyClientCertIfGiven':
      return (socket) => presented(socket) && !socket.authorized;
    default:
      return undefined;
  }
}
