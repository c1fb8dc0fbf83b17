"""The static site (`companion site`): the app frozen into files (`build`), its addresses (`urls`), the Python its
phones run (`python`: Pyodide and a zip of our pure code; `runtime/`: the worker that loads them; `browser`: the entry
the worker calls) and the sheets kept on a phone (`phone_sheets`). Imports nothing at load: the phone imports
`browser` from here without Flask."""
