/** Small behaviours every page shares (progressive: the pages work without them). */

/** Filter forms marked `data-autosubmit` apply as soon as a select or checkbox changes. */
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-autosubmit]')) {
  form.addEventListener('change', (event) => {
    const target = event.target as HTMLInputElement | HTMLSelectElement
    if (target instanceof HTMLSelectElement || target.type === 'checkbox') form.requestSubmit()
  })
}
