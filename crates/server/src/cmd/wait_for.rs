//! `wait-for`, as tmux's: scripts wait on named channels until another command signals them,
//! or take turns holding a channel's lock (see [`crate::wait_channels`]).

use super::{Action, Entry};
use crate::outcome::{CommandError, Output};
use futures::FutureExt;

/// `wait-for`.
pub static WAIT_FOR: Entry = Entry {
    name: "wait-for",
    aliases: &[],
    usage: "[-L | -S | -U] channel",
    about: "Wait until the channel is signalled with -S (a signal nobody waited for is kept for \
            the next waiter); -L lock the channel, waiting while another holds it; -U unlock \
            it, for the next waiting to lock it.",
    flags: "LSU",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        let [channel] = args.positional.as_slice() else {
            return Err(args.usage("one channel name is needed"));
        };
        let modes = ['L', 'S', 'U'].iter().filter(|f| args.has(**f)).count();
        if modes > 1 {
            return Err(args.usage("only one of -L, -S and -U"));
        }
        let channel = channel.clone();
        let (lock, signal, unlock) = (args.has('L'), args.has('S'), args.has('U'));
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                let failed = |e: String| CommandError::failed(format!("wait-for: {e}"));
                let waiting = if signal {
                    ctx.waits.signal(&channel).map_err(failed)?;
                    None
                } else if unlock {
                    ctx.waits.unlock(&channel).map_err(failed)?;
                    None
                } else if lock {
                    ctx.waits.lock_channel(&channel).map_err(failed)?
                } else {
                    ctx.waits.wait(&channel).map_err(failed)?
                };
                // Waits holding nothing of the server's; a client that leaves drops this, and
                // its place in the channel with it.
                if let Some(waiting) = waiting {
                    waiting.done().await;
                }
                Ok(Output::none())
            }
            .boxed()
        })))
    },
};
