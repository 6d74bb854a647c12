/**
 * An error shown where it happened. `role="alert"` makes screen readers announce it at once;
 * the element is always rendered so the live region exists before the message arrives.
 */
export function ErrorText({ message, id }: { message: string | null | undefined; id?: string }) {
  return (
    <p className="error-text" role="alert" id={id} hidden={!message}>
      {message ?? ''}
    </p>
  );
}
