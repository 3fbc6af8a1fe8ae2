/**
 * The two ways a protobuf body is refused: 400 when the bytes are not valid
 * (`ProtobufFormatError` from the wire reader, wrapped at the top), and 415
 * when they are valid but hold a type or field this server does not describe —
 * decoding those by guesswork could store something the client never sent.
 */
import { statusFailure } from '../../api/errors';
import type { ApiError } from '../../api/errors';

/** 415 UnsupportedMediaType naming exactly what could not be decoded. */
export function unsupportedProtobuf(what: string): ApiError {
  return statusFailure(
    415,
    'UnsupportedMediaType',
    `the protobuf body holds ${what}, which this server does not decode; send the object as application/json instead`,
  );
}
