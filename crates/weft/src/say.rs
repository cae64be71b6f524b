//! Printing that does not panic when the stream is gone: `println!` and `eprintln!` panic when
//! the write fails, as it does once the terminal has closed (EIO) or a pipe's reader has left.
//! Nobody is left to read the line then, so it is dropped.

/// `println!` that drops the line when standard output is gone.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `eprintln!` that drops the line when standard error is gone.
macro_rules! say_err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
