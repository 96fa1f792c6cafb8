"""HTTP errors raised by handlers and turned into responses by the app."""


class HttpError(Exception):
    status = 500

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(HttpError):
    status = 400


class NotFound(HttpError):
    status = 404


class MethodNotAllowed(HttpError):
    status = 405
