//! Setting up a dataflow across processes: the TCP connections between them, and the messages timely gives when one is lost.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use timely::communication::Hooks;
use timely::communication::allocator::zero_copy::bytes_slab::BytesRefill;
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};

use crate::engines::parts::Filing;
use crate::error::{Error, Result};
use crate::program::Program;
use crate::query::{Cluster, Output, Request};

/// How long the processes of a cluster wait for one another to connect,
/// greet and agree: every step of setting up ends within it.
const CONNECT_WAIT: Duration = Duration::from_secs(120);

/// How long an accepted connection may take to send its greeting before it
/// is dropped as not one of the run's processes.
const GREETING_WAIT: Duration = Duration::from_secs(5);

/// The first bytes of every greeting.
const MAGIC: &[u8; 8] = b"PEGFLIP\x01";

/// The most bytes a greeting's description may have.
const MAX_GREETING: u32 = 1 << 16;

/// How long a process that refuses the run before it starts waits for the
/// others, to tell them so.
const REFUSAL_WAIT: Duration = Duration::from_secs(10);

/// The one key of the greeting of a process that refuses the run.
const REFUSED: &str = "refused";

/// What every process of a run must agree on before any work: the binary,
/// the compiled program, the query, and the cluster, as named values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Agreement(Vec<(String, String)>);

impl Agreement {
    /// The agreement of this process's run, whose positions are exchanged
    /// as `filing` packs them.
    pub(super) fn of(
        program: &Program,
        request: &Request,
        cluster: &Cluster,
        filing: Filing,
    ) -> Agreement {
        let yes = |b: bool| if b { "yes" } else { "no" }.to_string();
        let puzzle = program.puzzle();
        let start = request
            .from
            .as_ref()
            .map_or_else(|| "none".to_string(), |b| puzzle.board_text(b));
        let output = match request.output {
            Output::List => "a listing",
            Output::Count => "a count",
            Output::Histogram => "a histogram",
        };
        Agreement(vec![
            ("pegflip".into(), env!("CARGO_PKG_VERSION").into()),
            (
                "the puzzle".into(),
                format!(
                    "{} ({} cells, {} moves, compiled program {:016x})",
                    puzzle.name,
                    program.cells(),
                    program.moves().len(),
                    fingerprint(program)
                ),
            ),
            ("the start".into(), start),
            ("the packing of positions".into(), filing.describe()),
            ("--reachable".into(), yes(request.reachable)),
            ("--symmetry".into(), yes(request.symmetry)),
            ("--no-orbits".into(), yes(request.explicit)),
            ("the output".into(), output.into()),
            ("--processes".into(), cluster.processes().to_string()),
            ("--workers".into(), cluster.threads.to_string()),
            ("the hostfile".into(), cluster.addresses.join(" ")),
        ])
    }

    /// The greeting of a process that refuses the run, with its reason.
    fn refusal(message: &str) -> Agreement {
        let reason: String = message.chars().take(4096).collect();
        Agreement(vec![(REFUSED.into(), reason.replace(['\n', '\t'], " "))])
    }

    /// The other process's refusal, in words, when its greeting is one.
    fn refused(&self, other: usize) -> Option<String> {
        let (key, reason) = self.0.first()?;
        (key == REFUSED).then(|| refused_before_start(other, reason))
    }

    fn encode(&self, me: usize) -> Vec<u8> {
        let text: String = self.0.iter().map(|(k, v)| format!("{k}\t{v}\n")).collect();
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(me as u64).to_le_bytes());
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
        out
    }

    /// Reads a greeting: the sender's index and agreement, or `None` when
    /// what arrives is not one.
    fn read(stream: &mut TcpStream) -> Option<(usize, Agreement)> {
        let mut head = [0u8; 20];
        stream.read_exact(&mut head).ok()?;
        if &head[..8] != MAGIC {
            return None;
        }
        let index = u64::from_le_bytes(head[8..16].try_into().ok()?) as usize;
        let len = u32::from_le_bytes(head[16..20].try_into().ok()?);
        if len > MAX_GREETING {
            return None;
        }
        let mut text = vec![0u8; len as usize];
        stream.read_exact(&mut text).ok()?;
        let text = String::from_utf8(text).ok()?;
        let pairs = text
            .lines()
            .map(|l| {
                let (k, v) = l.split_once('\t')?;
                Some((k.to_string(), v.to_string()))
            })
            .collect::<Option<Vec<_>>>()?;
        Some((index, Agreement(pairs)))
    }

    /// Where `theirs` (process `other`'s) differs from this one, in words,
    /// the lower process first; `None` when they agree.
    fn differences(&self, theirs: &Agreement, me: usize, other: usize) -> Option<String> {
        if self == theirs {
            return None;
        }
        let ((a, pa), (b, pb)) = match me < other {
            true => ((self, me), (theirs, other)),
            false => ((theirs, other), (self, me)),
        };
        let value = |x: &Agreement, k: &str| {
            x.0.iter()
                .find(|(key, _)| key == k)
                .map_or("nothing".to_string(), |(_, v)| v.clone())
        };
        let mut keys: Vec<&String> = a.0.iter().map(|(k, _)| k).collect();
        keys.extend(
            b.0.iter()
                .map(|(k, _)| k)
                .filter(|k| !a.0.iter().any(|(m, _)| m == *k)),
        );
        let diffs: Vec<String> = keys
            .into_iter()
            .filter(|k| value(a, k) != value(b, k))
            .map(|k| {
                format!(
                    "{k} is {} on process {pa} but {} on process {pb}",
                    value(a, k),
                    value(b, k)
                )
            })
            .collect();
        Some(format!(
            "process {pa} and process {pb} were started with different runs, so no count would \
             be right: {}; every process must run the same command, each with its own --process",
            diffs.join("; ")
        ))
    }
}

/// A fingerprint of a compiled program: its cells, every move's guard and
/// flip, and its goal's targets (FNV-1a, the same on every machine).
fn fingerprint(program: &Program) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |word: u64| {
        for byte in word.to_le_bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(program.cells() as u64);
    for m in program.moves() {
        for cells in [&m.need_on, &m.need_off, &m.flip] {
            eat(cells.len() as u64);
            cells.iter().for_each(|c| eat(c.0 as u64));
        }
    }
    if let crate::program::Goal::Targets(targets) = program.goal() {
        for t in targets {
            t.words().iter().for_each(|&w| eat(w));
        }
    }
    hash
}

/// The streams to the other processes of a run, connected and agreed,
/// before timely takes them over.
pub(super) struct Peers {
    me: usize,
    sockets: Vec<Option<TcpStream>>,
}

impl Peers {
    /// Connects this process of `cluster` to the others, and checks that
    /// every one runs what `agreement` says; `None` for a run of one process.
    pub(super) fn connect(cluster: &Cluster, agreement: &Agreement) -> Result<Option<Peers>> {
        if cluster.processes() == 1 {
            return Ok(None);
        }
        let sockets = connect(&cluster.addresses, cluster.process, agreement)?;
        Ok(Some(Peers {
            me: cluster.process,
            sockets,
        }))
    }

    /// What process 0 works out with `compute`, sent to every other
    /// process: each gets the same figures without working them out again.
    pub(super) fn worked_out_by_first(
        &mut self,
        compute: impl FnOnce() -> [u64; 4],
    ) -> Result<[u64; 4]> {
        let io = |e: std::io::Error| {
            Error::Usage(format!(
                "the processes could not share the estimate of the layers: {e}"
            ))
        };
        if self.me == 0 {
            let figures = compute();
            let bytes: Vec<u8> = figures.iter().flat_map(|f| f.to_le_bytes()).collect();
            self.tell_all(&bytes)?;
            return Ok(figures);
        }
        let Some(stream) = self.sockets[0].as_mut() else {
            return Err(Error::Internal("no stream to process 0".into()));
        };
        stream.set_read_timeout(Some(SAMPLE_WAIT)).map_err(io)?;
        let mut bytes = [0u8; 32];
        let me = self.me;
        stream.read_exact(&mut bytes).map_err(|e| {
            Error::Usage(match e.kind() {
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => format!(
                    "process {me} waited {} s for process 0's estimate of the layers, and it \
                     did not come: process 0 is stuck or not reached",
                    SAMPLE_WAIT.as_secs()
                ),
                _ => format!(
                    "process 0 went away before it sent its estimate of the layers ({e}), so \
                     process {me} cannot start: process 0 says why"
                ),
            })
        })?;
        let word = |i: usize| u64::from_le_bytes(bytes[i * 8..i * 8 + 8].try_into().unwrap());
        Ok([word(0), word(1), word(2), word(3)])
    }

    /// Writes `bytes` to every other process.
    fn tell_all(&mut self, bytes: &[u8]) -> Result<()> {
        for (other, stream) in self.sockets.iter_mut().enumerate() {
            if let Some(stream) = stream {
                stream.write_all(bytes).map_err(|e| {
                    Error::Usage(format!(
                        "process {other} went away before the run started ({e}): it says why"
                    ))
                })?;
            }
        }
        Ok(())
    }

    /// Tells every other process whether this one starts (`refusal` is
    /// `None`) or refuses, and why, and hears theirs: all start, or all
    /// stop. The first refusal of another process, in process order, is
    /// the error; a process that refuses itself reports its own reason
    /// (its caller does), so it keeps none of theirs.
    pub(super) fn start_together(&mut self, refusal: Option<&str>) -> Result<()> {
        let io = |e: std::io::Error| {
            Error::Usage(format!("the processes could not agree to start: {e}"))
        };
        let reason: String = refusal.unwrap_or("").chars().take(4096).collect();
        let mut said = vec![u8::from(refusal.is_some())];
        said.extend_from_slice(&(reason.len() as u32).to_le_bytes());
        said.extend_from_slice(reason.as_bytes());
        self.tell_all(&said)?;
        let mut first: Option<String> = None;
        for (other, stream) in self.sockets.iter_mut().enumerate() {
            let Some(stream) = stream else { continue };
            stream.set_read_timeout(Some(CONNECT_WAIT)).map_err(io)?;
            let mut head = [0u8; 5];
            stream.read_exact(&mut head).map_err(|e| {
                Error::Usage(match e.kind() {
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => format!(
                        "process {other} did not say within {} s whether it starts",
                        CONNECT_WAIT.as_secs()
                    ),
                    _ => format!(
                        "process {other} went away before it said whether it starts ({e}): it \
                         says why"
                    ),
                })
            })?;
            let len = u32::from_le_bytes(head[1..].try_into().unwrap()).min(MAX_GREETING);
            let mut text = vec![0u8; len as usize];
            stream.read_exact(&mut text).map_err(io)?;
            stream.set_read_timeout(None).map_err(io)?;
            if head[0] != 0 && first.is_none() && refusal.is_none() {
                first = Some(refused_before_start(other, &String::from_utf8_lossy(&text)));
            }
        }
        match first {
            Some(refused) => Err(Error::Usage(refused)),
            None => Ok(()),
        }
    }
}

/// Process `other`'s refusal of the run, with its reason, as every other process says it.
fn refused_before_start(other: usize, reason: &str) -> String {
    format!("process {other} refused the run before it started, so none can be made: {reason}")
}

/// How long the other processes wait for process 0 to draw the sample
/// that estimates the layers.
const SAMPLE_WAIT: Duration = Duration::from_secs(600);

/// The workers' allocators: threads of this process, and with `peers`,
/// connected over TCP to the other processes. Connections are made by
/// [`Peers::connect`], not by timely, so that nothing is printed to stdout
/// and a process that never comes is a clear error.
pub(super) fn allocators(
    cluster: &Cluster,
    peers: Option<Peers>,
) -> Result<(Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>)> {
    let hooks = Hooks {
        refill: recycled_buffers(),
        ..Hooks::default()
    };
    let local = ProcessBuilder::new_typed_vector(
        cluster.threads,
        hooks.refill.clone(),
        hooks.spill.clone(),
    );
    let Some(peers) = peers else {
        return Ok((
            local.into_iter().map(AllocatorBuilder::Process).collect(),
            Box::new(()),
        ));
    };
    let (builders, guard) = initialize_networking_from_sockets(
        local,
        peers.sockets,
        cluster.process,
        cluster.threads,
        hooks,
    )
    .map_err(|e| Error::Usage(format!("the processes could not start talking: {e}")))?;
    Ok((
        builders.into_iter().map(AllocatorBuilder::Tcp).collect(),
        Box::new(guard),
    ))
}

/// The most bytes of network buffers a process keeps for reuse.
const KEPT_BUFFERS: usize = 64 << 20;

/// Network buffers that go back to their process's pool when timely lets
/// them go. Timely asks for a new buffer whenever those it has are still
/// being read from, and by default makes a fresh zeroed one, whose pages
/// the system must clear; a buffer from the pool is only overwritten.
struct Recycled {
    bytes: Box<[u8]>,
    pool: Arc<Mutex<Vec<Box<[u8]>>>>,
}

impl Deref for Recycled {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.bytes
    }
}

impl DerefMut for Recycled {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.bytes
    }
}

impl Drop for Recycled {
    fn drop(&mut self) {
        let bytes = std::mem::take(&mut self.bytes);
        if let Ok(mut pool) = self.pool.lock()
            && pool.iter().map(|b| b.len()).sum::<usize>() + bytes.len() <= KEPT_BUFFERS
        {
            pool.push(bytes);
        }
    }
}

/// Timely's buffers for one process, taken from a pool of at most
/// [`KEPT_BUFFERS`] bytes when one of the size asked for is there.
fn recycled_buffers() -> BytesRefill {
    let pool: Arc<Mutex<Vec<Box<[u8]>>>> = Arc::default();
    BytesRefill {
        logic: Arc::new(move |size| {
            let kept = pool.lock().ok().and_then(|mut kept| {
                let at = kept.iter().position(|b| b.len() == size)?;
                Some(kept.swap_remove(at))
            });
            Box::new(Recycled {
                bytes: kept.unwrap_or_else(|| vec![0u8; size].into_boxed_slice()),
                pool: pool.clone(),
            })
        }),
        limit: None,
    }
}

/// One stream to every other process, in process order (`None` for this
/// one): this process listens at its own address, connects to the processes
/// before it and accepts the ones after it. The one that connects greets
/// first (its index and its [`Agreement`]), the one that accepts answers
/// with its own, and both refuse a run that differs. A connection that does
/// not greet within [`GREETING_WAIT`] is dropped; every wait ends at
/// [`CONNECT_WAIT`].
fn connect(
    addresses: &[String],
    me: usize,
    agreement: &Agreement,
) -> Result<Vec<Option<TcpStream>>> {
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
            .write_all(&agreement.encode(me))
            .map_err(io(format!("cannot greet process {i} at {address}")))?;
        let left = deadline.saturating_duration_since(Instant::now());
        stream
            .set_read_timeout(Some(left.max(Duration::from_millis(100))))
            .map_err(io("cannot set a read timeout".into()))?;
        let Some((index, theirs)) = Agreement::read(&mut stream) else {
            return Err(Error::Usage(format!(
                "process {me} reached {address}, the address of process {i}, but what answered \
                 there did not greet back as a pegflip process within {} s: is another program \
                 listening at that address?",
                CONNECT_WAIT.as_secs()
            )));
        };
        if index != i {
            return Err(Error::Usage(format!(
                "process {me} reached {address}, the address of process {i}, but process {index} \
                 answered: check that every process has its own --process and the same hostfile"
            )));
        }
        if let Some(diff) = theirs
            .refused(i)
            .or_else(|| agreement.differences(&theirs, me, i))
        {
            return Err(Error::Usage(diff));
        }
        stream
            .set_read_timeout(None)
            .map_err(io("cannot clear a read timeout".into()))?;
        let _ = stream.set_nodelay(true);
        sockets[i] = Some(stream);
    }
    while sockets.iter().skip(me + 1).any(Option::is_none) {
        match listener.accept() {
            Ok((mut stream, _)) => {
                stream
                    .set_nonblocking(false)
                    .map_err(io("cannot set a connection blocking".into()))?;
                let wait = GREETING_WAIT.min(deadline.saturating_duration_since(Instant::now()));
                stream
                    .set_read_timeout(Some(wait.max(Duration::from_millis(100))))
                    .map_err(io("cannot set a read timeout".into()))?;
                // Not a greeting in time: not one of this run's processes.
                let Some((index, theirs)) = Agreement::read(&mut stream) else {
                    continue;
                };
                if index <= me || index >= addresses.len() || sockets[index].is_some() {
                    return Err(Error::Usage(format!(
                        "process {me} was reached by a process that calls itself {index}: check \
                         that every process has its own --process and the same hostfile"
                    )));
                }
                if let Some(refusal) = theirs.refused(index) {
                    return Err(Error::Usage(refusal));
                }
                // Answer first, so that the other process learns of a difference too.
                stream
                    .write_all(&agreement.encode(me))
                    .map_err(io(format!("cannot answer process {index}")))?;
                if let Some(diff) = agreement.differences(&theirs, me, index) {
                    return Err(Error::Usage(diff));
                }
                stream
                    .set_read_timeout(None)
                    .map_err(io("cannot clear a read timeout".into()))?;
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

/// Tells the other processes of `cluster` that this one refuses the run,
/// and why, so that they stop at once instead of waiting for it: it greets
/// each with its refusal, as it would greet them with what its run is, for
/// at most 10 s. A process that cannot be told in that time (not
/// started yet, or gone) is left to its own wait.
pub fn tell_refusal(cluster: &Cluster, message: &str) {
    let (me, addresses) = (cluster.process, &cluster.addresses);
    if addresses.len() < 2 || me >= addresses.len() {
        return;
    }
    let greeting = Agreement::refusal(message).encode(me);
    let deadline = Instant::now() + REFUSAL_WAIT;
    let Ok(listener) = TcpListener::bind(&addresses[me]) else {
        return;
    };
    if listener.set_nonblocking(true).is_err() {
        return;
    }
    // Writes the refusal, then waits for the other side to close or answer,
    // so that the refusal is read before this side goes.
    let tell = |mut stream: TcpStream| {
        let _ = stream.set_nonblocking(false);
        let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
        if stream.write_all(&greeting).is_ok() {
            let _ = stream.read(&mut [0u8; 64]);
        }
    };
    let mut told: Vec<bool> = (0..addresses.len()).map(|i| i == me).collect();
    while told.contains(&false) && Instant::now() < deadline {
        for (i, address) in addresses.iter().enumerate().take(me) {
            if !told[i]
                && let Ok(stream) = TcpStream::connect(address)
            {
                tell(stream);
                told[i] = true;
            }
        }
        match listener.accept() {
            Ok((mut stream, _)) => {
                let _ = stream.set_nonblocking(false);
                let _ = stream.set_read_timeout(Some(GREETING_WAIT));
                if let Some((index, _)) = Agreement::read(&mut stream)
                    && index > me
                    && index < addresses.len()
                {
                    tell(stream);
                    told[index] = true;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(_) => return,
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Processes whose processors pack positions differently (one with
    /// AVX-512 and BMI2, one without) would exchange keys that mean
    /// different positions: they must refuse, naming the packing.
    #[test]
    fn processes_that_pack_positions_differently_do_not_agree() {
        let entry = crate::catalogue::find("english33").unwrap();
        let program = crate::Puzzle::parse(entry.text, "english33")
            .unwrap()
            .compile()
            .unwrap();
        let request = Request::default();
        let cluster = Cluster::local(1);
        let board = (1u64 << 33) - 1;
        let compact = Filing::Compact { board, cells: 33 };
        let ours = Agreement::of(&program, &request, &cluster, compact);
        let same = Agreement::of(&program, &request, &cluster, compact);
        assert_eq!(ours.differences(&same, 0, 1), None);
        let theirs = Agreement::of(&program, &request, &cluster, Filing::Words);
        let said = ours
            .differences(&theirs, 0, 1)
            .expect("the packings differ");
        assert!(
            said.contains(
                "the packing of positions is compact keys of 33 cells (a processor with AVX-512 \
                 and BMI2) on process 0 but whole grid words on process 1"
            ),
            "{said}"
        );
    }
}
