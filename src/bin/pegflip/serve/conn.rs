//! The server's connections: accepted up to a cap, each bounded in how long a client may take to send or to read.
//!
//! A client gets `--read-timeout` seconds to send a request's headers (hyper's
//! header timeout, which also ends an idle kept-alive connection) and as long
//! again for its body ([`read_body`]). A response the client stops reading
//! fails once no byte has left for as long ([`Stall`]). Past
//! `--max-connections` open at once, a new connection is answered 503 and
//! closed, so slow clients can hold at most that many.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

/// How long clients may take, and how many connections may be open.
#[derive(Clone, Copy)]
pub struct Bounds {
    /// The time to send the headers, the body, or the next bytes of a response.
    pub read: Duration,
    /// The most connections open at once.
    pub connections: usize,
}

/// Serves `router` on `listener` until `stop` completes, then lets the
/// requests under way finish (at most the read timeout more).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    bounds: Bounds,
    stop: impl Future<Output = ()>,
) {
    let open = Arc::new(Semaphore::new(bounds.connections));
    let graceful = GracefulShutdown::new();
    let mut stop = std::pin::pin!(stop);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors, or a connection reset before it was
                // taken: wait a moment rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let Ok(permit) = open.clone().try_acquire_owned() else {
            tokio::spawn(refuse(stream, bounds));
            continue;
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(Stall::new(stream, bounds.read));
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(bounds.read)
            .serve_connection(io, service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A connection's errors (a timeout, a reset) end only that connection.
            let _ = connection.await;
            drop(permit);
        });
    }
    let _ = tokio::time::timeout(bounds.read, graceful.shutdown()).await;
}

/// Answers a connection past the cap with 503 and closes it.
async fn refuse(mut stream: TcpStream, bounds: Bounds) {
    let body = serde_json::json!({
        "error": format!(
            "the server has {} connections open, its most (--max-connections); try again",
            bounds.connections
        )
    })
    .to_string();
    let reply = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(bounds.read, async {
        stream.write_all(reply.as_bytes()).await?;
        stream.shutdown().await
    })
    .await;
}

/// Middleware: reads the whole body within the read timeout and the size
/// limit before the handler sees it, answering 408 or 413 otherwise.
pub async fn read_body(
    State((bounds, max_body)): State<(Bounds, usize)>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    let seconds = bounds.read.as_secs_f64();
    let read = tokio::time::timeout(bounds.read, Limited::new(body, max_body).collect()).await;
    let bytes = match read {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.is::<LengthLimitError>() => {
            return super::error(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request's body is larger than the {max_body} bytes the server reads"),
            );
        }
        Ok(Err(e)) => {
            return super::error(
                StatusCode::BAD_REQUEST,
                format!("the request's body could not be read: {e}"),
            );
        }
        Err(_) => {
            return super::error(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request's body did not arrive within the read timeout of {seconds} s \
                     (--read-timeout)"
                ),
            );
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// A connection whose writes fail once the client has taken no byte for
/// `limit`: a client that stops reading a response cannot hold its connection.
struct Stall<T> {
    inner: T,
    limit: Duration,
    waiting: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<T> Stall<T> {
    fn new(inner: T, limit: Duration) -> Self {
        Stall {
            inner,
            limit,
            waiting: None,
        }
    }

    /// What a write that would block returns: still pending, or the timeout.
    fn blocked<R>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<R>> {
        let limit = self.limit;
        let waiting = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match waiting.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client stopped reading the response",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    /// Passes on what a write returned, timing a write that would block.
    fn timed<R>(
        &mut self,
        polled: Poll<io::Result<R>>,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<R>> {
        match polled {
            Poll::Pending => self.blocked(cx),
            done => {
                self.waiting = None;
                done
            }
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Stall<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Stall<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.timed(polled, cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.timed(polled, cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_flush(cx);
        this.timed(polled, cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.timed(polled, cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "current_thread")]
    async fn a_write_the_client_never_reads_fails_at_the_limit() {
        let (near, _far) = tokio::io::duplex(64);
        let mut stalled = Stall::new(near, Duration::from_millis(300));
        let write = stalled.write_all(&[0; 1024]);
        let started = std::time::Instant::now();
        let err = write.await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(300), "{waited:?}");
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_client_that_reads_slowly_but_steadily_is_served() {
        use tokio::io::AsyncReadExt;
        let (near, mut far) = tokio::io::duplex(64);
        let reader = tokio::spawn(async move {
            let mut got = Vec::new();
            let mut chunk = [0; 64];
            loop {
                tokio::time::sleep(Duration::from_millis(100)).await;
                match far.read(&mut chunk).await.unwrap() {
                    0 => return got.len(),
                    n => got.extend_from_slice(&chunk[..n]),
                }
            }
        });
        let mut stalled = Stall::new(near, Duration::from_millis(300));
        stalled.write_all(&[7; 1024]).await.unwrap();
        stalled.shutdown().await.unwrap();
        drop(stalled);
        assert_eq!(reader.await.unwrap(), 1024);
    }
}
