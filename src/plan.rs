//! A tick's writes, collected before anything touches the disk: `--dry-run` prints them, a real
//! run commits them in order. Tick code pushes `state.toml` last, so a run killed part-way leaves
//! the previous state, and the next tick redoes the rest with the same bytes.

use crate::error::Result;
use crate::game_dir::{
    Access, create_dir, rename_into_place, replace_as, replace_parts_as, temp_beside,
    unchanged_parts, write_new,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Default)]
pub struct Plan {
    steps: Vec<Step>,
    /// Whether each folder written into existed when first looked at: a file in a folder that
    /// did not exist is new, so it is not read back to compare (one failing open per report).
    folders: HashMap<PathBuf, bool>,
    /// Who may read the files written (owner-only unless `public`).
    access: Access,
    /// Whether new folders are written whole and renamed into place before the first durable
    /// file (`for_tick`).
    stage_new_folders: bool,
    /// Whether a new folder's files may be written before `commit` (`early_folder`): a tick's
    /// plan (which stages new folders), unless it is a dry run.
    early: bool,
    /// Files of `.cache/` (`cache_file`) of a plan that does not write early: written after
    /// everything else, best effort.
    cache: Vec<(PathBuf, Vec<u8>)>,
    early_temps: EarlyTemps,
}

#[derive(Debug)]
enum Step {
    Dir(PathBuf),
    /// A new folder written early (`early_folder`): (where it goes, the temp folder holding it).
    Early(PathBuf, PathBuf),
    /// A file written early (`early_file`): (where it goes, the temp file holding it, its size).
    EarlyFile(PathBuf, PathBuf, usize),
    File(PathBuf, Body),
    /// Synced to disk before its rename: state.toml.
    Durable(PathBuf, Body),
}

/// A planned file's bytes: whole, or parts written one after another (`Plan::file_parts`: a
/// big text made of sections, never joined in memory).
#[derive(Debug)]
enum Body {
    Whole(Vec<u8>),
    Parts(Vec<String>),
}

impl Body {
    fn parts(&self) -> Vec<&[u8]> {
        match self {
            Body::Whole(bytes) => vec![bytes],
            Body::Parts(parts) => parts.iter().map(|p| p.as_bytes()).collect(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Body::Whole(bytes) => bytes.len(),
            Body::Parts(parts) => parts.iter().map(String::len).sum(),
        }
    }
}

impl Plan {
    /// A plan whose files everyone may read (a web site).
    pub fn public() -> Plan {
        Plan {
            access: Access::Everyone,
            ..Plan::default()
        }
    }

    /// A tick's plan, whose only marker of work done is its last, durable file (state.toml):
    /// the files of a new folder may reach the disk later than planned, as long as they do
    /// before it, so a new folder (a round's `private/`, ten thousand reports) is written whole
    /// and renamed into place once. Plans whose files mark progress themselves (a season's
    /// reports) keep the plain order.
    /// A dry run's plan writes nothing, not even early (`early_folder`).
    pub fn for_tick(dry_run: bool) -> Plan {
        Plan {
            stage_new_folders: true,
            early: !dry_run,
            ..Plan::default()
        }
    }

    /// A new folder whose files are written as they are made (a round's reports, by the threads
    /// that render them) rather than held until `commit`: created now under a temp name beside
    /// it, and renamed into place by `commit` as any staged folder is (so before the first
    /// durable file). Until then nobody sees it; a plan dropped without a commit removes it, and
    /// a run killed before its rename leaves a temp folder the next run sweeps. `None` where the
    /// plan cannot write early (a dry run, a plan that does not stage folders) or the folder or
    /// its parent is not as a new folder is (it exists, or its parent does not): the caller
    /// then plans its files as usual.
    pub fn early_folder(&mut self, path: PathBuf) -> Result<Option<EarlyFolder>> {
        let parent = match path.parent() {
            Some(parent) if self.early => parent,
            _ => return Ok(None),
        };
        if self.exists(&path) || !parent.is_dir() || self.steps.iter().any(|s| s.is_in(&path)) {
            return Ok(None);
        }
        let temp = crate::game_dir::temp_dir_in(parent)?;
        self.early_temps.folders.push(temp.clone());
        self.steps.push(Step::Early(path, temp.clone()));
        Ok(Some(EarlyFolder {
            temp,
            access: self.access,
        }))
    }

    pub fn dir(&mut self, path: PathBuf) {
        if !self.exists(&path) {
            self.steps.push(Step::Dir(path));
        }
    }

    /// Plans a write unless the file already holds these bytes.
    pub fn file(&mut self, path: PathBuf, bytes: impl Into<Vec<u8>>) {
        self.file_body(path, Body::Whole(bytes.into()));
    }

    /// Plans a write of `parts` one after another, unless the file already holds them: a big
    /// text made of sections (a large round's result.toml) is never joined in memory.
    pub fn file_parts(&mut self, path: PathBuf, parts: Vec<String>) {
        self.file_body(path, Body::Parts(parts));
    }

    fn file_body(&mut self, path: PathBuf, body: Body) {
        if !self.unchanged(&path, &body) {
            self.steps.push(Step::File(path, body));
        }
    }

    /// Plans a file whose bytes are written now, under a temp name beside it, and renamed into
    /// place by `commit` at its turn among the planned writes: a big file planned long before
    /// the commit (a large round's receipts.toml, planned when the versions are received) is
    /// not held in memory until then. Until its rename nobody reads it; a plan dropped without
    /// a commit removes it, and a run killed before leaves a temp file the next run sweeps.
    /// As `file` otherwise: nothing if the file already holds these bytes, and the bytes held
    /// until the commit where the plan cannot write early (a dry run, a plan that is not a
    /// tick's) or the file's folder is not on disk yet.
    pub fn early_file(&mut self, path: PathBuf, bytes: Vec<u8>) -> Result<()> {
        let body = Body::Whole(bytes);
        let on_disk = path.parent().is_some_and(|folder| self.exists(folder));
        if !self.early || !on_disk {
            self.file_body(path, body);
            return Ok(());
        }
        if self.unchanged(&path, &body) {
            return Ok(());
        }
        let temp = temp_beside(&path, &body.parts(), self.access)?;
        self.early_temps.files.push(temp.clone());
        self.steps.push(Step::EarlyFile(path, temp, body.len()));
        Ok(())
    }

    /// Plans a write the caller knows to be a change (a file known not to exist, or whose
    /// content is known to differ): nothing is read back to compare.
    pub fn new_file(&mut self, path: PathBuf, bytes: impl Into<Vec<u8>>) {
        self.steps.push(Step::File(path, Body::Whole(bytes.into())));
    }

    /// Plans a changed file that reaches the disk before it replaces the old one (state.toml).
    pub fn durable_file(&mut self, path: PathBuf, bytes: impl Into<Vec<u8>>) {
        self.steps
            .push(Step::Durable(path, Body::Whole(bytes.into())));
    }

    /// Plans a file of `.cache/` (a memo), not at all written if it cannot be (a cache only
    /// saves work) and not among the `entries` a dry run lists. A memo names the sha256 of the
    /// text it stands for (`host_file::memo`): one that reaches the disk before its text, or
    /// without it (a run killed or failing before the commit), is a miss, never a wrong value.
    /// So a tick's plan writes it at once instead of holding its bytes until the commit, when
    /// a large tick's memory peaks; other plans write it after everything else.
    pub fn cache_file(&mut self, path: PathBuf, bytes: Vec<u8>) {
        match self.memo_writer() {
            Some(memos) => memos.write(&path, &bytes),
            None => self.cache.push((path, bytes)),
        }
    }

    /// What writes a memo at once, as `cache_file` does, from a thread that cannot reach the
    /// plan (state.toml's memo, made beside the reports); `None` where memos wait for the commit.
    pub fn memo_writer(&self) -> Option<MemoWriter> {
        self.early.then_some(MemoWriter {
            access: self.access,
        })
    }

    /// Whether a folder existed before this plan (looked up once per folder).
    fn exists(&mut self, folder: &Path) -> bool {
        if let Some(known) = self.folders.get(folder) {
            return *known;
        }
        let known = folder.is_dir();
        self.folders.insert(folder.to_path_buf(), known);
        known
    }

    fn unchanged(&mut self, path: &Path, body: &Body) -> bool {
        let folder = path.parent().unwrap_or(Path::new("."));
        self.exists(folder) && unchanged_parts(path, &body.parts())
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Each planned path with its size (`None` for a folder; a folder written early is listed
    /// as a folder).
    pub fn entries(&self) -> impl Iterator<Item = (&Path, Option<usize>)> {
        self.steps.iter().map(|s| match s {
            Step::Dir(p) | Step::Early(p, _) => (p.as_path(), None),
            Step::EarlyFile(p, _, len) => (p.as_path(), Some(*len)),
            Step::File(p, body) | Step::Durable(p, body) => (p.as_path(), Some(body.len())),
        })
    }

    /// Writes the plan so that what it makes becomes visible in the order it was planned: a run
    /// killed anywhere leaves a prefix of the plan on disk, which is what the tick's recovery
    /// reads (receipts.toml never before the `received/` copies it names; state.toml last).
    ///
    /// In a tick's plan (`for_tick`), a new folder whose parent exists (a round's `received/`
    /// or `private/`) is written whole under a temp name first, with every file planned into
    /// it, and renamed into place at its turn: one rename for the folder instead of one per
    /// file, and a run killed before the rename leaves only a temp folder, which the next
    /// run sweeps. Everything else is written at its turn, each file a temp file renamed over
    /// the old one.
    pub fn commit(mut self) -> Result<()> {
        let mut staged = Staged {
            enabled: self.stage_new_folders,
            folders: Vec::new(),
        };
        // first what nobody sees yet: the staged folders and the files planned into them
        let mut turns = Vec::with_capacity(self.steps.len());
        for step in self.steps {
            match step {
                Step::Dir(p) => turns.extend(staged.dir(&p)?),
                Step::Early(to, temp) => {
                    self.early_temps.folders.retain(|t| *t != temp);
                    staged.folders.push(Staged::folder(to.clone(), temp));
                    turns.push(Turn::Publish(to));
                }
                // planned only if different: no second comparison
                Step::File(path, body) => match staged.inside(&path) {
                    Some(inside) => write_new(&inside, &body.parts(), self.access)?,
                    None => turns.push(Turn::Replace {
                        path,
                        body,
                        durable: false,
                    }),
                },
                Step::EarlyFile(to, temp, _) => turns.push(Turn::Rename { temp, to }),
                Step::Durable(path, body) => turns.push(Turn::Replace {
                    path,
                    body,
                    durable: true,
                }),
            }
        }
        // then each step at its turn
        for turn in turns {
            match turn {
                Turn::Publish(to) => staged.publish(&to)?,
                Turn::Create(path) => create_dir(&path)?,
                Turn::Rename { temp, to } => {
                    self.early_temps.files.retain(|t| *t != temp);
                    rename_into_place(&temp, &to)?;
                }
                Turn::Replace {
                    path,
                    body,
                    durable,
                } => replace_parts_as(&path, &body.parts(), durable, self.access)?,
            }
        }
        let memos = MemoWriter {
            access: self.access,
        };
        for (path, bytes) in self.cache {
            memos.write(&path, &bytes);
        }
        Ok(())
    }
}

impl Step {
    /// Whether this step plans `path` or something inside it.
    fn is_in(&self, path: &Path) -> bool {
        match self {
            Step::Dir(p)
            | Step::Early(p, _)
            | Step::EarlyFile(p, ..)
            | Step::File(p, _)
            | Step::Durable(p, _) => p.starts_with(path),
        }
    }
}

/// The temp folders of a plan's early folders not yet handed to a commit's `Staged`, and the
/// temp files of its early files not yet renamed: a plan dropped without a commit (an error on
/// the way) leaves none of them.
#[derive(Debug, Default)]
struct EarlyTemps {
    folders: Vec<PathBuf>,
    files: Vec<PathBuf>,
}

impl Drop for EarlyTemps {
    fn drop(&mut self) {
        for temp in &self.folders {
            let _ = std::fs::remove_dir_all(temp);
        }
        for temp in &self.files {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// A folder being written early (`Plan::early_folder`); shared by the threads writing into it.
#[derive(Debug)]
pub struct EarlyFolder {
    temp: PathBuf,
    access: Access,
}

impl EarlyFolder {
    /// Writes the new file `name` into the folder.
    pub fn write(&self, name: &str, bytes: &[u8]) -> Result<()> {
        write_new(&self.temp.join(name), &[bytes], self.access)
    }
}

/// What a commit does at a step's turn, once the staged folders are written.
enum Turn {
    /// A staged folder renamed into place.
    Publish(PathBuf),
    /// A folder outside any staged one, made where it goes.
    Create(PathBuf),
    /// A file written early, renamed into place.
    Rename { temp: PathBuf, to: PathBuf },
    /// A file written beside its place and renamed over it (synced first if `durable`).
    Replace {
        path: PathBuf,
        body: Body,
        durable: bool,
    },
}

/// The new folders of a commit being written under temp names: (where it goes, where it is,
/// whether it is in place yet).
struct Staged {
    enabled: bool,
    folders: Vec<StagedFolder>,
}

struct StagedFolder {
    to: PathBuf,
    temp: PathBuf,
    published: bool,
}

impl Staged {
    fn folder(to: PathBuf, temp: PathBuf) -> StagedFolder {
        StagedFolder {
            to,
            temp,
            published: false,
        }
    }

    /// Prepares a planned folder: under a temp name beside it when its parent exists and is
    /// not staged itself, inside its staged ancestor when it has one. Returns what is left to
    /// do at its turn: its rename into place, or (outside any staged folder, its parent not
    /// yet there) its creation.
    fn dir(&mut self, path: &Path) -> Result<Option<Turn>> {
        if self.folders.iter().any(|f| f.to == path) {
            return Ok(None); // planned twice
        }
        if let Some(inside) = self.inside(path) {
            create_dir(&inside)?;
            return Ok(None);
        }
        match path.parent().filter(|p| self.enabled && p.is_dir()) {
            Some(parent) if !path.exists() => {
                let temp = crate::game_dir::temp_dir_in(parent)?;
                self.folders.push(Staged::folder(path.to_path_buf(), temp));
                Ok(Some(Turn::Publish(path.to_path_buf())))
            }
            _ => Ok(Some(Turn::Create(path.to_path_buf()))),
        }
    }

    /// Where a path inside a staged folder is written now.
    fn inside(&self, path: &Path) -> Option<PathBuf> {
        self.folders.iter().find_map(|f| {
            path.strip_prefix(&f.to)
                .ok()
                .filter(|rest| !rest.as_os_str().is_empty())
                .map(|rest| f.temp.join(rest))
        })
    }

    /// Renames the staged folder for `to` into place.
    fn publish(&mut self, to: &Path) -> Result<()> {
        if let Some(folder) = self.folders.iter_mut().find(|f| f.to == to) {
            std::fs::rename(&folder.temp, to).map_err(|e| crate::error::Error::io(to, e))?;
            folder.published = true;
        }
        Ok(())
    }
}

/// A commit that failed part-way leaves none of the folders it had not renamed into place (a
/// killed one leaves them to the next run's sweep).
impl Drop for Staged {
    fn drop(&mut self) {
        for folder in self.folders.iter().filter(|f| !f.published) {
            let _ = std::fs::remove_dir_all(&folder.temp);
        }
    }
}

/// Writes a tick's memos (`Plan::cache_file`, `Plan::memo_writer`): best effort, since a cache
/// only saves work; not synced.
#[derive(Debug, Clone, Copy)]
pub struct MemoWriter {
    access: Access,
}

impl MemoWriter {
    pub fn write(&self, path: &Path, bytes: &[u8]) {
        let _ = replace_as(path, bytes, false, self.access);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `folder`, sorted.
    fn names(folder: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_ticks_memo_is_written_at_once_others_at_the_commit_and_a_dry_runs_never() {
        let tmp = tempfile::tempdir().unwrap();
        let memo = |name: &str| tmp.path().join(".cache/parsed").join(name);
        let mut tick = Plan::for_tick(false);
        tick.cache_file(memo("tick"), b"t".to_vec());
        // on disk before the commit, holding nothing back
        assert_eq!(std::fs::read(memo("tick")).unwrap(), b"t");
        assert!(tick.cache.is_empty());
        tick.commit().unwrap();
        assert_eq!(std::fs::read(memo("tick")).unwrap(), b"t");

        let mut other = Plan::default();
        other.cache_file(memo("other"), b"o".to_vec());
        assert!(!memo("other").exists(), "written after everything else");
        other.commit().unwrap();
        assert_eq!(std::fs::read(memo("other")).unwrap(), b"o");

        let mut dry = Plan::for_tick(true);
        dry.cache_file(memo("dry"), b"d".to_vec());
        assert_eq!(
            dry.entries().count(),
            0,
            "a memo is not among a dry run's writes"
        );
        drop(dry);
        assert!(!memo("dry").exists());
    }

    #[test]
    fn an_early_folder_is_seen_only_once_committed_and_before_the_durable_file() {
        let tmp = tempfile::tempdir().unwrap();
        let round = tmp.path().join("rounds/001");
        std::fs::create_dir_all(&round).unwrap();
        let mut plan = Plan::for_tick(false);
        let early = plan.early_folder(round.join("private")).unwrap().unwrap();
        early.write("ann.txt", b"a").unwrap();
        early.write("bob.txt", b"b").unwrap();
        plan.file(round.join("private/cat.txt"), "c");
        plan.durable_file(tmp.path().join("state.toml"), "s");
        // written, under a temp name nobody reads
        let [temp] = &names(&round)[..] else {
            panic!("{:?}", names(&round))
        };
        assert!(temp.starts_with(crate::game_dir::TEMP_PREFIX), "{temp}");
        assert!(!round.join("private").exists());
        let listed: Vec<_> = plan.entries().map(|(p, n)| (p.to_path_buf(), n)).collect();
        assert_eq!(listed[0], (round.join("private"), None));
        plan.commit().unwrap();
        assert_eq!(names(&round), ["private"]);
        assert_eq!(
            names(&round.join("private")),
            ["ann.txt", "bob.txt", "cat.txt"]
        );
        assert_eq!(std::fs::read(round.join("private/bob.txt")).unwrap(), b"b");
        assert_eq!(std::fs::read(tmp.path().join("state.toml")).unwrap(), b"s");
    }

    /// Issue 56: receipts.toml (an early file) is planned after the round's new received/ (an
    /// early folder) whose copies it names; a commit stopped at the receipts has the folder in
    /// place already, so no run ever sees a receipt without its copy.
    #[test]
    fn what_a_commit_makes_becomes_visible_in_the_order_it_was_planned() {
        let tmp = tempfile::tempdir().unwrap();
        let round = tmp.path().join("rounds/001");
        std::fs::create_dir_all(&round).unwrap();
        let mut plan = Plan::for_tick(false);
        let early = plan.early_folder(round.join("received")).unwrap().unwrap();
        early.write("ann-1.toml", b"a").unwrap();
        plan.early_file(round.join("receipts.toml"), b"r".to_vec())
            .unwrap();
        plan.file(round.join("received/bob-1.toml"), "b");
        plan.durable_file(tmp.path().join("state.toml"), "s");
        // the receipts' rename fails: a folder stands where they go
        std::fs::create_dir_all(round.join("receipts.toml/in-the-way")).unwrap();
        assert!(plan.commit().is_err());
        assert_eq!(
            std::fs::read(round.join("received/ann-1.toml")).unwrap(),
            b"a"
        );
        assert_eq!(
            std::fs::read(round.join("received/bob-1.toml")).unwrap(),
            b"b"
        );
        assert!(!tmp.path().join("state.toml").exists());
        let temps: Vec<_> = names(&round)
            .into_iter()
            .filter(|n| n.starts_with(crate::game_dir::TEMP_PREFIX))
            .collect();
        assert_eq!(
            temps,
            Vec::<String>::new(),
            "the receipts' temp file is removed"
        );
    }

    #[test]
    fn an_early_file_is_on_disk_at_once_under_a_temp_name_and_renamed_at_its_turn() {
        let tmp = tempfile::tempdir().unwrap();
        let round = tmp.path().join("rounds/001");
        std::fs::create_dir_all(&round).unwrap();
        let receipts = round.join("receipts.toml");
        std::fs::write(&receipts, "old").unwrap();
        let mut plan = Plan::for_tick(false);
        plan.early_file(receipts.clone(), b"new".to_vec()).unwrap();
        plan.durable_file(tmp.path().join("state.toml"), "s");
        // written now, under a temp name nobody reads; the old file stays until the commit
        let [temp, kept] = &names(&round)[..] else {
            panic!("{:?}", names(&round))
        };
        assert!(temp.starts_with(crate::game_dir::TEMP_PREFIX), "{temp}");
        assert_eq!(std::fs::read(round.join(temp)).unwrap(), b"new");
        assert_eq!(kept, "receipts.toml");
        assert_eq!(std::fs::read(&receipts).unwrap(), b"old");
        assert_eq!(plan.entries().next(), Some((receipts.as_path(), Some(3))));
        plan.commit().unwrap();
        assert_eq!(names(&round), ["receipts.toml"]);
        assert_eq!(std::fs::read(&receipts).unwrap(), b"new");
        assert_eq!(std::fs::read(tmp.path().join("state.toml")).unwrap(), b"s");

        // the same bytes plan nothing; a plan dropped before its commit leaves no temp file
        let mut again = Plan::for_tick(false);
        again.early_file(receipts.clone(), b"new".to_vec()).unwrap();
        assert!(again.is_empty(), "unchanged");
        again
            .early_file(receipts.clone(), b"newer".to_vec())
            .unwrap();
        assert_eq!(names(&round).len(), 2);
        drop(again);
        assert_eq!(names(&round), ["receipts.toml"]);
        assert_eq!(std::fs::read(&receipts).unwrap(), b"new");

        // a dry run, a plan that is not a tick's, a folder not yet on disk: the bytes wait
        let later = tmp.path().join("rounds/002/receipts.toml");
        let cases = [
            (Plan::for_tick(true), &receipts),
            (Plan::default(), &receipts),
            (Plan::for_tick(false), &later),
        ];
        for (mut plan, path) in cases {
            plan.early_file(path.clone(), b"held".to_vec()).unwrap();
            assert_eq!(plan.entries().next(), Some((path.as_path(), Some(4))));
            assert_eq!(names(&round), ["receipts.toml"]);
            assert!(!later.exists());
        }
    }

    #[test]
    fn a_file_planned_in_parts_is_them_one_after_another_and_unchanged_parts_plan_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("result.toml");
        let parts = || {
            vec![
                "[meta]\n\n".to_owned(),
                String::new(),
                "[b]\nx = 1\n".into(),
            ]
        };
        let mut plan = Plan::for_tick(false);
        plan.file_parts(path.clone(), parts());
        assert_eq!(plan.entries().next(), Some((path.as_path(), Some(18))));
        plan.commit().unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "[meta]\n\n[b]\nx = 1\n"
        );
        // the same bytes cut elsewhere are the same file; one byte more is not
        let mut again = Plan::for_tick(false);
        again.file_parts(
            path.clone(),
            vec!["[meta]\n\n[b]".into(), "\nx = 1\n".into()],
        );
        assert!(again.is_empty(), "unchanged");
        again.file_parts(
            path.clone(),
            vec!["[meta]\n\n[b]\nx = 1\n".into(), "\n".into()],
        );
        assert!(!again.is_empty(), "longer");
        let mut shorter = Plan::for_tick(false);
        shorter.file_parts(path.clone(), vec!["[meta]\n".into()]);
        assert!(!shorter.is_empty(), "shorter");
    }

    #[test]
    fn a_plan_dropped_without_a_commit_leaves_no_early_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let mut plan = Plan::for_tick(false);
        let early = plan.early_folder(tmp.path().join("private")).unwrap();
        early.unwrap().write("ann.txt", b"a").unwrap();
        assert_eq!(names(tmp.path()).len(), 1);
        drop(plan);
        assert_eq!(names(tmp.path()), Vec::<String>::new());
    }

    #[test]
    fn nothing_is_written_early_by_a_dry_run_into_a_folder_that_exists_or_by_other_plans() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("there")).unwrap();
        let cases: [(Plan, &str); 4] = [
            (Plan::for_tick(true), "private"),
            (Plan::for_tick(false), "there"),
            (Plan::for_tick(false), "no/parent"),
            (Plan::default(), "private"),
        ];
        for (mut plan, folder) in cases {
            assert!(
                plan.early_folder(tmp.path().join(folder))
                    .unwrap()
                    .is_none(),
                "{folder}"
            );
        }
        assert_eq!(names(tmp.path()), ["there"]);
    }
}
