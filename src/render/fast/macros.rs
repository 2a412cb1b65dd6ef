//! Macro calls, as tera's `eval_macro_call` makes them: the macro a namespace names in the
//! active template, its arguments evaluated where it is called (or its defaults), its body
//! rendered in a frame of its own, and the text it wrote as the call's value.

use super::{Frame, MAX_INCLUDES, State, Step, Stop};
use std::collections::HashMap;
use tera::Template;
use tera::ast::{MacroCall, MacroDefinition};

type Macros = HashMap<String, MacroDefinition>;

impl<'a> State<'a> {
    /// The text macro `call` writes.
    pub(super) fn macro_call(&mut self, call: &'a MacroCall) -> Step<String> {
        let active = *self.templates.last().expect("the template being rendered");
        let (file, macros) = self
            .namespace(active, &call.namespace, 0)?
            .ok_or(Stop::Error)?;
        let definition = macros.get(&call.name).ok_or(Stop::Error)?;
        let mut frame = Frame::new(false);
        for (name, default) in &definition.args {
            let value = match (call.args.get(name), default) {
                (Some(given), _) => self.eval(given)?,
                (None, Some(default)) => self.eval(default)?,
                (None, None) => return Err(Stop::Error),
            };
            frame.vars.push((name.as_str(), value));
        }
        let template = self.tera.get_template(file).map_err(|_| Stop::Error)?;
        self.frames.push(frame);
        self.templates.push(template);
        let mut out = String::new();
        let written = self.body(&definition.body, &mut out);
        self.templates.pop();
        self.frames.pop();
        written.map(|()| out)
    }

    /// The file and macros `namespace` names in `template`, as tera's `MacroCollection` maps
    /// them: an import of that name (the last one), else `self` for the template's own macros,
    /// else the first import whose own names include it (an imported file's imports, and its
    /// `self`, are seen through it).
    fn namespace(
        &self,
        template: &'a Template,
        namespace: &str,
        depth: usize,
    ) -> Step<Option<(&'a str, &'a Macros)>> {
        if depth >= MAX_INCLUDES {
            return Err(Stop::Unsupported); // (tera stops a cycle of imports half-way)
        }
        let imported = |file: &'a str| -> Step<&'a Template> {
            self.tera.get_template(file).map_err(|_| Stop::Error)
        };
        if let Some((file, _)) = template
            .imported_macro_files
            .iter()
            .rev()
            .find(|(_, name)| name == namespace)
        {
            return Ok(Some((file, &imported(file)?.macros)));
        }
        if namespace == "self" && !template.macros.is_empty() {
            return Ok(Some((&template.name, &template.macros)));
        }
        for (file, _) in &template.imported_macro_files {
            if let Some(found) = self.namespace(imported(file)?, namespace, depth + 1)? {
                return Ok(Some(found));
            }
        }
        Ok(None)
    }
}
