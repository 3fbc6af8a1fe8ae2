/**
 * The two ways a protobuf body is refused: 400 when the bytes are not valid
 * (`ProtobufFormatError` from the wire reader, wrapped at the top), and 415
 * when they are valid but hold a type or field this server does not describe —
 * decoding those by guesswork could store something the client never sent.
 */
import { ApiError } from '../../api/errors';

/** 415 UnsupportedMediaType naming exactly what could not be decoded. */
export function unsupportedProtobuf(what: string): ApiError {
  return new ApiError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `the protobuf body holds ${what}, which this server does not decode; send the object as application/json instead`,
    reason: 'UnsupportedMediaType',
    code: 415,
  });
}
