/**
 * `Permissions-Policy` on every response, API and pages (browser security headers, ASVS 5.0 V3.4; issue #12
 * finding 10): the portal uses no camera, microphone, location, payment handler, USB or screen capture, so
 * no page — or anything injected into one, or a frame — may ask for them. Only features Chromium and Firefox
 * recognise are listed, so browsers log no "unrecognized feature" warnings.
 */
import type { RequestHandler } from 'express';

/** The header value: every listed feature off except fullscreen for this origin. */
export const PERMISSIONS_POLICY = [
  'accelerometer=()', 'browsing-topics=()', 'camera=()', 'display-capture=()', 'fullscreen=(self)', 'geolocation=()',
  'gyroscope=()', 'magnetometer=()', 'microphone=()', 'midi=()', 'payment=()', 'usb=()',
].join(', ');

/**
 * The header value on API answers: the four features issue #12's finding names. A JSON answer is never a document
 * that runs script (its CSP is `default-src 'none'`), so no feature can be asked for there and the full list would be
 * 150 bytes of every API call for nothing (issue #17 data budget: the applicant journey makes about 20); scanners
 * that look for the header on every answer still find it.
 */
export const API_PERMISSIONS_POLICY = 'camera=(), geolocation=(), microphone=(), payment=()';

/**
 * Middleware: sets `Permissions-Policy: PERMISSIONS_POLICY` on every response (ASVS 5.0 V3.4; issue #12 finding 10).
 */
export const permissionsPolicy: RequestHandler = (_req, res, next) => {
  res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
  next();
};
