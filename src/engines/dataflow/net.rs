//! Setting up a dataflow across processes: the TCP connections between them, and the messages timely gives when one is lost.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use timely::communication::Hooks;
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};

use crate::error::{Error, Result};
use crate::query::Cluster;

/// How long the processes of a cluster wait for one another to connect.
const CONNECT_WAIT: Duration = Duration::from_secs(120);

/// The workers' allocators: threads of this process, connected over TCP to
/// the other processes when there are several. Connections are made here,
/// not by timely, so that nothing is printed to stdout and a process that
/// never comes is a clear error.
pub(super) fn allocators(
    cluster: &Cluster,
) -> Result<(Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>)> {
    let hooks = Hooks::default();
    let local = ProcessBuilder::new_typed_vector(
        cluster.threads,
        hooks.refill.clone(),
        hooks.spill.clone(),
    );
    if cluster.processes() == 1 {
        return Ok((
            local.into_iter().map(AllocatorBuilder::Process).collect(),
            Box::new(()),
        ));
    }
    let sockets = connect(&cluster.addresses, cluster.process)?;
    let (builders, guard) =
        initialize_networking_from_sockets(local, sockets, cluster.process, cluster.threads, hooks)
            .map_err(|e| Error::Usage(format!("the processes could not start talking: {e}")))?;
    Ok((
        builders.into_iter().map(AllocatorBuilder::Tcp).collect(),
        Box::new(guard),
    ))
}

/// One stream to every other process, in process order (`None` for this
/// one): this process listens at its own address, connects to the processes
/// before it and accepts the ones after it, each of which first sends its index.
fn connect(addresses: &[String], me: usize) -> Result<Vec<Option<TcpStream>>> {
    let deadline = Instant::now() + CONNECT_WAIT;
    let io = |what: String| move |e: std::io::Error| Error::Usage(format!("{what}: {e}"));
    let listener = TcpListener::bind(&addresses[me]).map_err(io(format!(
        "process {me} cannot listen on {}",
        addresses[me]
    )))?;
    listener
        .set_nonblocking(true)
        .map_err(io("cannot poll the listener".into()))?;
    let mut sockets: Vec<Option<TcpStream>> = (0..addresses.len()).map(|_| None).collect();
    for (i, address) in addresses.iter().enumerate().take(me) {
        let mut stream = loop {
            match TcpStream::connect(address) {
                Ok(stream) => break stream,
                Err(e) if Instant::now() < deadline => {
                    let _ = e;
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err(e) => {
                    return Err(Error::Usage(format!(
                        "process {me} could not reach process {i} at {address} within {} s: {e}",
                        CONNECT_WAIT.as_secs()
                    )));
                }
            }
        };
        stream
            .write_all(&(me as u64).to_le_bytes())
            .map_err(io(format!("cannot greet process {i} at {address}")))?;
        let _ = stream.set_nodelay(true);
        sockets[i] = Some(stream);
    }
    while sockets.iter().skip(me + 1).any(Option::is_none) {
        match listener.accept() {
            Ok((mut stream, _)) => {
                stream
                    .set_nonblocking(false)
                    .map_err(io("cannot set a connection blocking".into()))?;
                let mut index = [0u8; 8];
                stream
                    .read_exact(&mut index)
                    .map_err(io("a connecting process did not say which it is".into()))?;
                let index = u64::from_le_bytes(index) as usize;
                if index <= me || index >= addresses.len() || sockets[index].is_some() {
                    return Err(Error::Usage(format!(
                        "process {me} was reached by a process that calls itself {index}: check \
                         that every process has its own --process and the same hostfile"
                    )));
                }
                let _ = stream.set_nodelay(true);
                sockets[index] = Some(stream);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    let missing: Vec<String> = (me + 1..addresses.len())
                        .filter(|&i| sockets[i].is_none())
                        .map(|i| i.to_string())
                        .collect();
                    return Err(Error::Usage(format!(
                        "process {me} waited {} s at {} and process {} never connected",
                        CONNECT_WAIT.as_secs(),
                        addresses[me],
                        missing.join(", ")
                    )));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => return Err(io("cannot accept a connection".into())(e)),
        }
    }
    Ok(sockets)
}

/// Whether a panic's message is one of timely's when a connection to
/// another process is lost: its network threads' I/O errors, and the
/// poisoned queues and joins that follow them in the other threads.
pub fn is_lost_connection(panic: &str) -> bool {
    [
        "timely communication error",
        "MergeQueue",
        "Failed to acquire lock",
        "Clean shutdown followed by data",
        "Send thread panic",
        "Recv thread panic",
    ]
    .iter()
    .any(|marker| panic.contains(marker))
}

/// A worker's failure in words: a lost connection says which side went away.
pub(super) fn lost_peer(panic: &str) -> String {
    if is_lost_connection(panic) {
        format!(
            "the connection to another process was lost, so the layers cannot be completed \
             (timely reported: {panic})"
        )
    } else {
        format!("a worker failed: {panic}")
    }
}
